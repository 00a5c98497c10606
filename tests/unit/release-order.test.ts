import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareReleases, compareSemverReleases } from "../../src/model/release-order";

describe("release order", () => {
  it("orders semver releases as Sentry does: version, revision, pre-release below release, numeric builds", () => {
    // Each strictly newer than the one before it.
    const ascending = [
      "app@1.0.0-alpha", "app@1.0.0-alpha.1", "app@1.0.0-beta", "app@1.0.0-rc.1", "app@1.0.0-rc.2", "app@1.0.0-rc.10",
      "app@1.0.0", "app@1.0.0+2", "app@1.0.0+10", "app@1.0.0.1", "app@1.0.1", "app@1.1", "app@1.10.0", "app@2.0.0",
    ];
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        assert.equal(compareSemverReleases(ascending[i]!, ascending[j]!), Math.sign(i - j), `${ascending[i]} vs ${ascending[j]}`);
      }
    }
    assert.equal(compareSemverReleases("1.2", "1.2.0"), 0);
    assert.equal(compareSemverReleases("v2.0.0", "1.9.9"), 1);
  });

  it("falls back to dates for other pairs; an unknown release counts as newer", () => {
    const dates = new Map([["abc123", 1000], ["def456", 2000], ["app@1.0.0", 3000], ["other@0.1.0", 500]]);
    const dateOf = (release: string) => dates.get(release) ?? null;
    assert.equal(compareSemverReleases("abc123", "def456"), null);
    assert.equal(compareReleases("abc123", "def456", dateOf), -1);
    assert.equal(compareReleases("def456", "abc123", dateOf), 1);
    // Different packages are not compared by version.
    assert.equal(compareSemverReleases("app@1.0.0", "other@0.1.0"), null);
    assert.equal(compareReleases("other@0.1.0", "app@1.0.0", dateOf), -1);
    assert.equal(compareReleases("never-seen", "abc123", dateOf), 1);
    assert.equal(compareReleases("abc123", "abc123", dateOf), 0);
  });
});
