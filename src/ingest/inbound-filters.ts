/**
 * A project's inbound filters, compiled once per project when its key is cached (src/ingest/keys.ts)
 * and run on the main thread for each error event and transaction before it is scrubbed (as Relay
 * does), on the parts normalize.ts `filterViewOf` reads: a match drops the item before anything is
 * stored and counts it as outcome `filtered` with Sentry's reason code. A project with no filter on
 * costs nothing (no compiled filter). Transactions have no exception or message, so the
 * error-message and browser-extension filters never match them; the others apply as to errors.
 *
 * What each filter looks at follows Relay's `relay-filter` crate: the client's address (the event's
 * `user.ip_address`, else the connection's), the event's `request.url`, its user agent (the event's
 * `User-Agent` header, else the request's), its exception and message texts, and the top frames.
 */
import { BlockList, isIP } from "node:net";
import picomatch from "picomatch";
import { UAParser } from "ua-parser-js";
import type { EventFilter as ItemEventFilter } from "../items/types";
import type { InboundFilters } from "../model";
import type { FilterView } from "../processing/types";

/** Sentry's reason codes for filtered outcomes. */
export type FilterReason = "browser-extensions" | "localhost" | "legacy-browsers" | "web-crawlers" | "error-message" | "release-version" | "ip-address";

/** The event's reason to be dropped, or null to keep it. */
export type EventFilter = ItemEventFilter & ((event: FilterView, client: { clientIp: string | undefined; userAgent: string | undefined }) => FilterReason | null);

/** Relay's browser-extension messages and sources (relay-filter `browser_extensions.rs`). */
const EXTENSION_MESSAGES =
  /top\.GLOBALS|originalCreateNotification|canvas\.contentDocument|MyApp_RemoveAllHighlights|http:\/\/tt\.epicplay\.com|Can't find variable: ZiteReader|jigsaw is not defined|ComboSearch is not defined|http:\/\/loading\.retry\.widdit\.com\/|atomicFindClose|fb_xd_fragment|bmi_SafeAddOnload|EBCallBackMessageReceived|conduitPage|plugin\.setSuspendState is not a function|Extension context invalidated|useless is not defined|_gCrWeb|webkit-masked-url:/i;
const EXTENSION_SOURCES =
  /^(?:chrome(?:-extension)?|moz-extension|safari(?:-web)?-extension|ms-browser-extension|webkit-masked-url|resource):|graph\.facebook\.com|connect\.facebook\.net|eatdifferent\.com\.woopra-ns\.com|static\.woopra\.com\/js\/woopra\.js|^\/(?:chrome|moz)-extension\//i;

/** Relay's crawler list (relay-filter `web_crawlers.rs`), with the AI crawlers of 2024. */
const CRAWLERS =
  /Mediapartners-Google|AdsBot-Google|Googlebot|FeedFetcher-Google|Storebot-Google|BingBot|BingPreview|Baiduspider|Slurp|Sogou|facebook|meta-externalagent|ia_archiver|bots?[/\s);]|spider[/\s);]|Slack|Calypso AppCrawler|pingdom|lyticsbot|AWS Security Scanner|HubSpot Crawler|Bytespider|Better Uptime|Cloudflare-Healthchecks|GTmetrix|BrightEdgeOnCrawl|ELB-HealthChecker|naver\.me\/spd|ClaudeBot|CCBot|OAI-SearchBot|GPTBot|PerplexityBot|Applebot|DuckDuckBot/i;

/** Below these major versions a browser counts as legacy (Sentry's subfilter ids). */
const LEGACY: Record<string, { names: string[]; below: number }> = {
  ie: { names: ["IE", "IEMobile"], below: Number.POSITIVE_INFINITY },
  edge: { names: ["Edge"], below: 79 },
  safari: { names: ["Safari", "Mobile Safari"], below: 12 },
  firefox: { names: ["Firefox"], below: 66 },
  chrome: { names: ["Chrome", "Chrome WebView", "Chromium"], below: 63 },
  opera: { names: ["Opera"], below: 50 },
  opera_mini: { names: ["Opera Mini"], below: 35 },
  android: { names: ["Android Browser"], below: 4 },
};

const LOCAL_ADDRESSES = new Set(["127.0.0.1", "::1"]);
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function headerValue(event: FilterView, name: string): string | undefined {
  const headers = event.request?.headers;
  if (!headers) return undefined;
  for (const [key, value] of headers) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** Relay's texts for the error-message filter: each exception as `Type: value` (or either alone), and the message. */
function messagesOf(event: FilterView): string[] {
  const texts: string[] = [];
  for (const value of event.exception) {
    if (value.type && value.value) texts.push(`${value.type}: ${value.value}`);
    else if (value.type || value.value) texts.push((value.type ?? value.value)!);
  }
  if (event.logentry) texts.push(event.logentry.formatted || event.logentry.message);
  return texts;
}

function isFromExtension(event: FilterView): boolean {
  for (const value of event.exception) {
    if (value.value && EXTENSION_MESSAGES.test(value.value)) return true;
    const frames = value.stacktrace?.frames;
    const top = frames?.[frames.length - 1];
    const source = top?.abs_path ?? top?.filename;
    if (source && EXTENSION_SOURCES.test(source)) return true;
  }
  return false;
}

function isLocalhost(event: FilterView, clientIp: string | undefined): boolean {
  const ip = event.user?.ip_address ?? clientIp;
  if (ip !== undefined && LOCAL_ADDRESSES.has(ip)) return true;
  const url = event.request?.url;
  if (!url) return false;
  try {
    const host = new URL(url).hostname.toLowerCase();
    return LOCAL_HOSTS.has(host) || host.endsWith(".localhost");
  } catch {
    return false;
  }
}

function legacyMatcher(subfilters: string[]): ((userAgent: string) => boolean) | null {
  const rules = subfilters.map((id) => LEGACY[id]).filter((rule) => rule !== undefined);
  if (rules.length === 0) return null;
  return (userAgent) => {
    const browser = new UAParser(userAgent).getBrowser();
    const major = Number(browser.major);
    if (!browser.name) return false;
    return rules.some((rule) => rule.names.includes(browser.name!) && (rule.below === Number.POSITIVE_INFINITY || (Number.isFinite(major) && major < rule.below)));
  };
}

function addressMatcher(entries: string[]): ((ip: string) => boolean) | null {
  const list = new BlockList();
  let any = false;
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address);
    if (family === 0) continue;
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
    any = true;
  }
  if (!any) return null;
  return (ip) => {
    const family = isIP(ip);
    return family !== 0 && list.check(ip, family === 6 ? "ipv6" : "ipv4");
  };
}

const globs = (patterns: string[]) => (patterns.length === 0 ? null : picomatch(patterns, { nocase: true, bash: true, dot: true }));

/** The project's filters as one function; null when none is on (the ingest path then skips them). */
export function compileFilters(filters: InboundFilters): EventFilter | null {
  const messages = globs(filters.errorMessages);
  const releases = globs(filters.releases);
  const addresses = addressMatcher(filters.ipAddresses);
  const legacy = legacyMatcher(filters.legacyBrowsers);
  if (!messages && !releases && !addresses && !legacy && !filters.browserExtensions && !filters.localhost && !filters.webCrawlers) return null;
  return (event, client) => {
    const ip = event.user?.ip_address ?? client.clientIp;
    if (addresses && ip !== undefined && addresses(ip)) return "ip-address";
    if (releases && event.release !== undefined && releases(event.release)) return "release-version";
    if (messages && messagesOf(event).some((text) => messages(text))) return "error-message";
    if (filters.localhost && isLocalhost(event, client.clientIp)) return "localhost";
    if (filters.browserExtensions && isFromExtension(event)) return "browser-extensions";
    const userAgent = headerValue(event, "user-agent") ?? client.userAgent;
    if (userAgent !== undefined) {
      if (filters.webCrawlers && CRAWLERS.test(userAgent)) return "web-crawlers";
      if (legacy?.(userAgent)) return "legacy-browsers";
    }
    return null;
  };
}
