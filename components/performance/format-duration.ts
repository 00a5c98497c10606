/** A span or trace duration in ms, short: `0.42 ms`, `31 ms`, `1.25 s`, `12.5 s`. Plain code: server and client components use it. */
export const formatDuration = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`;
