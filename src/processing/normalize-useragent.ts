/**
 * Just enough User-Agent parsing to derive the `browser` and `os` tags for browser events that carry
 * no `contexts.browser`/`contexts.os`, as Relay does with its uap-core parser. Names follow uap-core
 * ("Mobile Safari", "Mac OS X", ...) so tags match what Sentry shows; versions are major.minor.
 */
export interface NamedVersion {
  name: string;
  version?: string;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)\.(\d+)/, "Edge"],
  [/OPR\/(\d+)\.(\d+)/, "Opera"],
  [/SamsungBrowser\/(\d+)\.(\d+)/, "Samsung Internet"],
  [/(?:Firefox|FxiOS)\/(\d+)\.(\d+)/, "Firefox"],
  [/CriOS\/(\d+)\.(\d+)/, "Chrome Mobile iOS"],
  [/HeadlessChrome\/(\d+)\.(\d+)/, "HeadlessChrome"],
  [/Android.*Chrome\/(\d+)\.(\d+).*Mobile/, "Chrome Mobile"],
  [/Chrome\/(\d+)\.(\d+)/, "Chrome"],
  [/(?:iPhone|iPad|iPod).*Version\/(\d+)\.(\d+).*Safari\//, "Mobile Safari"],
  [/Version\/(\d+)\.(\d+).*Safari\//, "Safari"],
];

const WINDOWS_VERSIONS: Record<string, string> = { "10.0": "10", "6.3": "8.1", "6.2": "8", "6.1": "7" };

export function browserFromUserAgent(userAgent: string): NamedVersion | undefined {
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) return { name, version: `${match[1]}.${match[2]}` };
  }
  return undefined;
}

export function osFromUserAgent(userAgent: string): NamedVersion | undefined {
  const windows = /Windows NT (\d+\.\d+)/.exec(userAgent);
  if (windows) return versioned("Windows", windows[1] && WINDOWS_VERSIONS[windows[1]]);
  // iOS before macOS: iPhone user agents say "like Mac OS X".
  const ios = /(?:iPhone|CPU) OS (\d+(?:_\d+)*)/.exec(userAgent);
  if (ios) return versioned("iOS", ios[1]?.replaceAll("_", "."));
  const mac = /Mac OS X (\d+(?:[._]\d+)*)/.exec(userAgent);
  if (mac) return versioned("Mac OS X", mac[1]?.replaceAll("_", "."));
  const android = /Android (\d+(?:\.\d+)*)/.exec(userAgent);
  if (android) return versioned("Android", android[1]);
  if (userAgent.includes("CrOS")) return { name: "Chrome OS" };
  if (userAgent.includes("Linux")) return { name: "Linux" };
  return undefined;
}

function versioned(name: string, version: string | undefined): NamedVersion {
  return version ? { name, version } : { name };
}
