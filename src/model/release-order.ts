/**
 * Which of two releases is newer, as Sentry orders them for "resolved in release": versions that
 * parse as semver (`package@1.2.3`, `1.2`, `1.2.3.4`, pre-releases, build numbers) compare by
 * version — major, minor, patch, revision, then a pre-release below its release (pre-release ids as
 * semver orders them), then the build (numbers numerically, otherwise as text, none lowest); any
 * other pair (not semver, or different packages) falls back to the releases' dates.
 */
import { SemVer } from "semver";

interface ParsedRelease {
  packageName: string | null;
  /** major.minor.patch with the pre-release, as the semver package compares them. */
  core: SemVer;
  revision: number;
  build: string;
}

const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/;

export function parseRelease(release: string): ParsedRelease | null {
  const at = release.lastIndexOf("@");
  const packageName = at > 0 ? release.slice(0, at) : null;
  const match = VERSION.exec(at > 0 ? release.slice(at + 1) : release);
  if (!match) return null;
  const [, major, minor = "0", patch = "0", revision = "0", pre, build = ""] = match;
  try {
    const core = new SemVer(`${Number(major)}.${Number(minor)}.${Number(patch)}${pre ? `-${pre}` : ""}`);
    return { packageName, core, revision: Number(revision), build };
  } catch {
    return null;
  }
}

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

function compareBuild(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "") return -1;
  if (b === "") return 1;
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return sign(Number(a) - Number(b));
  return a < b ? -1 : 1;
}

/** Both parse as semver of the same package: -1, 0 or 1; otherwise null (compare by date). */
export function compareSemverReleases(a: string, b: string): number | null {
  const x = parseRelease(a);
  const y = parseRelease(b);
  if (!x || !y || x.packageName !== y.packageName) return null;
  return x.core.compareMain(y.core) || sign(x.revision - y.revision) || x.core.comparePre(y.core) || compareBuild(x.build, y.build);
}

/**
 * -1, 0 or 1. `dateOf` gives a release's date (Unix ms) or null when unknown: a release with no
 * known date is one not seen before, so it counts as the newer one.
 */
export function compareReleases(a: string, b: string, dateOf: (release: string) => number | null): number {
  if (a === b) return 0;
  const bySemver = compareSemverReleases(a, b);
  if (bySemver !== null) return bySemver;
  const [da, db] = [dateOf(a), dateOf(b)];
  if (da === null && db === null) return 0;
  if (da === null) return 1;
  if (db === null) return -1;
  return sign(da - db);
}
