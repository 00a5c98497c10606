import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileFilters } from "../../src/ingest/inbound-filters";
import type { InboundFilters } from "../../src/model";
import type { IndexedEvent } from "../../src/processing/types";

const OFF: InboundFilters = { browserExtensions: false, localhost: false, webCrawlers: false, legacyBrowsers: [], errorMessages: [], releases: [], ipAddresses: [] };
const CLIENT = { clientIp: "203.0.113.7", userAgent: undefined };
const CHROME_120 = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const IE_11 = "Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko";
const FIREFOX_50 = "Mozilla/5.0 (Windows NT 10.0; rv:50.0) Gecko/20100101 Firefox/50.0";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

function event(overrides: Partial<IndexedEvent> = {}): IndexedEvent {
  return {
    event_id: "0".repeat(32), timestamp: 1, received: 1, platform: "javascript", level: "error", environment: "production",
    tags: [], contexts: {}, exception: [{ type: "TypeError", value: "x is undefined" }],
    ...overrides,
  } as IndexedEvent;
}

describe("inbound filters", () => {
  it("compiles to nothing when no filter is on", () => {
    assert.equal(compileFilters(OFF), null);
  });

  it("drops events by client address and CIDR range, IPv4 and IPv6", () => {
    const filter = compileFilters({ ...OFF, ipAddresses: ["198.51.100.0/24", "2001:db8::/32", "203.0.113.9", "not an address"] })!;
    assert.equal(filter(event(), { clientIp: "198.51.100.42", userAgent: undefined }), "ip-address");
    assert.equal(filter(event(), { clientIp: "2001:db8::1", userAgent: undefined }), "ip-address");
    assert.equal(filter(event({ user: { ip_address: "203.0.113.9" } }), CLIENT), "ip-address");
    assert.equal(filter(event(), { clientIp: "198.51.101.1", userAgent: undefined }), null);
    assert.equal(filter(event(), CLIENT), null);
  });

  it("drops events whose release or message matches a glob, case-insensitively", () => {
    const filter = compileFilters({ ...OFF, releases: ["*-beta*", "1.0.0"], errorMessages: ["*ResizeObserver loop*", "typeerror: x is *"] })!;
    assert.equal(filter(event({ release: "web@2.0-beta.3", exception: [] }), CLIENT), "release-version");
    assert.equal(filter(event({ release: "1.0.0", exception: [] }), CLIENT), "release-version");
    assert.equal(filter(event({ release: "1.0.01", exception: [] }), CLIENT), null);
    assert.equal(filter(event(), CLIENT), "error-message");
    assert.equal(filter(event({ exception: [], logentry: { message: "ResizeObserver loop limit exceeded", formatted: "ResizeObserver loop limit exceeded" } }), CLIENT), "error-message");
    assert.equal(filter(event({ exception: [{ type: "Error", value: "see https://example.com/a/b" }] }), CLIENT), null);
  });

  it("drops localhost events by address or URL", () => {
    const filter = compileFilters({ ...OFF, localhost: true })!;
    assert.equal(filter(event(), { clientIp: "127.0.0.1", userAgent: undefined }), "localhost");
    assert.equal(filter(event({ request: { url: "http://localhost:3000/cart" } }), CLIENT), "localhost");
    assert.equal(filter(event({ request: { url: "http://app.localhost/" } }), CLIENT), "localhost");
    assert.equal(filter(event({ request: { url: "https://localhost.example.com/" } }), CLIENT), null);
  });

  it("drops errors from browser extensions by source and message", () => {
    const filter = compileFilters({ ...OFF, browserExtensions: true })!;
    const frames = (path: string) => ({ frames: [{ abs_path: "https://shop.example.com/app.js" }, { abs_path: path }] });
    assert.equal(filter(event({ exception: [{ type: "Error", value: "boom", stacktrace: frames("chrome-extension://abcdef/content.js") }] }), CLIENT), "browser-extensions");
    assert.equal(filter(event({ exception: [{ type: "Error", value: "boom", stacktrace: frames("moz-extension://1234/inject.js") }] }), CLIENT), "browser-extensions");
    assert.equal(filter(event({ exception: [{ type: "TypeError", value: "top.GLOBALS is undefined" }] }), CLIENT), "browser-extensions");
    assert.equal(filter(event({ exception: [{ type: "Error", value: "boom", stacktrace: frames("https://shop.example.com/vendor.js") }] }), CLIENT), null);
  });

  it("drops web crawlers and the chosen legacy browsers by user agent", () => {
    const filter = compileFilters({ ...OFF, webCrawlers: true, legacyBrowsers: ["ie", "firefox"] })!;
    const from = (userAgent: string) => filter(event({ request: { headers: [["User-Agent", userAgent]] } }), CLIENT);
    assert.equal(from(GOOGLEBOT), "web-crawlers");
    assert.equal(from(IE_11), "legacy-browsers");
    assert.equal(from(FIREFOX_50), "legacy-browsers");
    assert.equal(from(CHROME_120), null);
    // The request's own user agent when the event names none.
    assert.equal(filter(event(), { clientIp: undefined, userAgent: IE_11 }), "legacy-browsers");
    const chromeOnly = compileFilters({ ...OFF, legacyBrowsers: ["chrome"] })!;
    assert.equal(chromeOnly(event({ request: { headers: [["user-agent", CHROME_120.replace("120.0", "49.0")]] } }), CLIENT), "legacy-browsers");
    assert.equal(chromeOnly(event({ request: { headers: [["user-agent", IE_11]] } }), CLIENT), null);
  });
});
