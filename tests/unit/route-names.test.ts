import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { ROUTE_PATTERNS, routeNameOf, scrubAppPaths, scrubEventPaths } from "../../src/monitoring/route-names";

const appDir = path.resolve(import.meta.dirname, "../../app");

/** Every app/ directory holding a page or route whose path has a dynamic segment, as `:name`. */
function dynamicRoutes(): string[] {
  const found: string[] = [];
  const walk = (dir: string, route: string[]) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (route.some((part) => part.startsWith(":")) && entries.some((entry) => /^(page|route)\.tsx?$/.test(entry.name))) found.push(`/${route.join("/")}`);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith("_") || entry.name.startsWith("[...")) continue;
      walk(path.join(dir, entry.name), [...route, entry.name.replace(/^\[(.+)\]$/, ":$1")]);
    }
  };
  walk(appDir, []);
  return found.sort();
}

describe("self-monitoring route names", () => {
  test("the pattern list names every dynamic route of app/", () => {
    assert.deepEqual([...ROUTE_PATTERNS].sort(), dynamicRoutes());
  });

  test("paths become route names without query or fragment", () => {
    assert.equal(routeNameOf("/organizations/org-b/issues"), "/organizations/:org/issues");
    assert.equal(routeNameOf("/organizations/org-b/issues/42/events/abc?x=1#y"), "/organizations/:org/issues/:issueId/events/:eventId");
    assert.equal(routeNameOf("/api/0/organizations/org-b/issues/?query=user:bob"), "/api/0/organizations/:org/issues/");
    assert.equal(routeNameOf("/invite/s3cret"), "/invite/:secret");
    assert.equal(routeNameOf("/organizations/org-b/unknown/thing"), "/organizations/:param/:param/:param");
    assert.equal(routeNameOf("/login?next=/organizations/org-b"), "/login");
  });

  test("paths inside text and URLs are replaced; other text is left alone", () => {
    assert.equal(scrubAppPaths("GET /api/0/organizations/org-b/events/?dataset=spans"), "GET /api/0/organizations/:org/events/");
    assert.equal(scrubAppPaths("https://periscope.example:8443/organizations/org-b/issues?q=1"), "https://periscope.example:8443/organizations/:org/issues");
    assert.equal(scrubAppPaths("/_next/static/chunks/app.js"), "/_next/static/chunks/app.js");
    assert.equal(scrubAppPaths("/srv/app/organizations/[org]/page.tsx"), "/srv/app/organizations/[org]/page.tsx");
  });

  test("a streamed span and a transaction event lose every slug", () => {
    const span = {
      name: "/organizations/org-b/issues/7",
      attributes: { "url.full": { value: "http://localhost:3000/organizations/org-b/issues/7", type: "string" }, "sentry.source": "url" },
      links: [{ attributes: { "http.url": "/settings/org-b/members" } }],
    };
    const text = JSON.stringify(scrubEventPaths(span));
    assert.ok(!text.includes("org-b"), text);
    assert.equal(span.name, "/organizations/:org/issues/:issueId");
  });
});

describe("queries", () => {
  test("a URL of any page loses its query; query attributes are removed", () => {
    assert.equal(scrubAppPaths("http://localhost:3000/login?next=%2Forganizations%2Forg-b"), "http://localhost:3000/login");
    const span = { attributes: { "url.query": { value: "?next=/organizations/org-b", type: "string" }, "url.path": { value: "/login", type: "string" } } };
    assert.deepEqual(scrubEventPaths(span), { attributes: { "url.path": { value: "/login", type: "string" } } });
  });
});
