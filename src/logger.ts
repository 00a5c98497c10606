import type { Config } from "./config";

export interface Logger {
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

const ORDER = ["debug", "info", "warn", "error", "silent"] as const;

export function createLogger(level: Config["logLevel"]): Logger {
  const threshold = ORDER.indexOf(level);
  const at =
    (name: (typeof ORDER)[number], write: (...args: unknown[]) => void) =>
    (message: string, detail?: unknown) => {
      if (ORDER.indexOf(name) < threshold) return;
      if (detail === undefined) write(message);
      else write(message, detail);
    };
  return {
    debug: at("debug", console.debug),
    info: at("info", console.log),
    warn: at("warn", console.warn),
    error: at("error", console.error),
  };
}
