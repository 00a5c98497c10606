import type { StackFrame, Stacktrace } from "@/src/processing/types";
import { formatValue } from "../format";
import { KeyValueTable, Pill } from "../ui";

type FrameRun = { inApp: boolean; frames: StackFrame[] };

/** The stack, with a marker where normalisation cut frames from the middle of a long one. */
export function StackTraceView({ stacktrace }: { stacktrace: Stacktrace }) {
  const omitted = stacktrace.frames_omitted;
  if (!omitted) return <StackTrace frames={stacktrace.frames} />;
  const [start, end] = omitted;
  // Newest first: the frames after the cut are listed above the marker.
  return (
    <>
      <StackTrace frames={stacktrace.frames.slice(start)} />
      <p className="border-y border-line bg-surface-2 px-4 py-1.5 text-xs text-muted" data-testid="frames-omitted">
        {(end - start).toLocaleString("en-US")} frames omitted: the first {start} and the last {stacktrace.frames.length - start} were kept
      </p>
      <StackTrace frames={stacktrace.frames.slice(0, start)} openNewest={false} />
    </>
  );
}

/**
 * Frames newest first (the protocol sends them oldest first). When the trace has in-app frames,
 * runs of library frames between them fold into one "N more frames" toggle, as Sentry does; the
 * newest in-app frame opens with its source context.
 */
export function StackTrace({ frames, openNewest = true }: { frames: StackFrame[]; openNewest?: boolean }) {
  const newestFirst = [...frames].reverse();
  const hasInApp = newestFirst.some((frame) => frame.in_app === true);
  const openIndex = !openNewest ? -1 : Math.max(0, hasInApp ? newestFirst.findIndex((frame) => frame.in_app === true) : 0);
  const runs: FrameRun[] = [];
  newestFirst.forEach((frame) => {
    const inApp = !hasInApp || frame.in_app === true;
    const last = runs[runs.length - 1];
    if (last && last.inApp === inApp) last.frames.push(frame);
    else runs.push({ inApp, frames: [frame] });
  });
  let index = 0;
  return (
    <ol className="divide-y divide-line" data-testid="stack-trace">
      {runs.map((run, runIndex) => {
        const start = index;
        index += run.frames.length;
        const items = run.frames.map((frame, offset) => (
          <Frame key={start + offset} frame={frame} open={start + offset === openIndex} emphasised={hasInApp && run.inApp} />
        ));
        if (run.inApp) return items;
        return (
          <li key={`run-${runIndex}`}>
            <details className="group/run">
              <summary className="flex items-center gap-2 px-4 py-1.5 text-xs text-muted hover:bg-surface-2">
                <Chevron group="run" />
                <span className="group-open/run:hidden">
                  Show {run.frames.length} more {run.frames.length === 1 ? "frame" : "frames"} from libraries
                </span>
                <span className="hidden group-open/run:inline">Hide {run.frames.length} library {run.frames.length === 1 ? "frame" : "frames"}</span>
              </summary>
              <ol className="divide-y divide-line border-t border-line">{items}</ol>
            </details>
          </li>
        );
      })}
    </ol>
  );
}

function Frame({ frame, open, emphasised }: { frame: StackFrame; open: boolean; emphasised: boolean }) {
  const hasContext = frame.context_line !== undefined || (frame.vars !== undefined && Object.keys(frame.vars).length > 0);
  const line = <FrameLine frame={frame} emphasised={emphasised} />;
  if (!hasContext) {
    return <li className="flex items-start gap-2 px-4 py-1.5 pl-9">{line}</li>;
  }
  return (
    <li>
      <details open={open} className="group/frame">
        <summary className="flex items-start gap-2 px-4 py-1.5 hover:bg-surface-2">
          <Chevron group="frame" />
          {line}
        </summary>
        <div className="space-y-2 px-4 pb-3">
          <SourceContext frame={frame} />
          {frame.vars && Object.keys(frame.vars).length > 0 ? (
            <div className="overflow-hidden rounded-md border border-line">
              <KeyValueTable rows={Object.entries(frame.vars).map(([key, value]) => [key, formatValue(value)])} />
            </div>
          ) : null}
        </div>
      </details>
    </li>
  );
}

function FrameLine({ frame, emphasised }: { frame: StackFrame; emphasised: boolean }) {
  const file = frame.filename ?? frame.abs_path ?? frame.module ?? "<unknown>";
  const position = [frame.lineno, frame.colno].filter((n) => n !== undefined).join(":");
  return (
    <span className={`min-w-0 flex-1 font-mono text-xs leading-5 [overflow-wrap:anywhere] ${emphasised || frame.in_app ? "text-fg" : "text-muted"}`}>
      <span className={emphasised ? "font-semibold" : undefined} title={frame.abs_path ?? frame.filename} data-testid="frame-file">
        {file}
        {position ? <span className="text-subtle">:{position}</span> : null}
      </span>
      <span className="text-subtle"> in </span>
      <span className={emphasised ? "font-semibold text-accent" : "text-fg"} data-testid="frame-function">
        {frame.function ?? "?"}
      </span>
      {frame.module && frame.module !== file ? <span className="text-subtle"> ({frame.module})</span> : null}
      {frame.in_app ? (
        <span className="ml-2 align-middle">
          <Pill tone="accent">In App</Pill>
        </span>
      ) : null}
    </span>
  );
}

function SourceContext({ frame }: { frame: StackFrame }) {
  if (frame.context_line === undefined) return null;
  const pre = frame.pre_context ?? [];
  const post = frame.post_context ?? [];
  const first = frame.lineno !== undefined ? frame.lineno - pre.length : null;
  const lines = [...pre, frame.context_line, ...post];
  return (
    <ol className="overflow-x-auto rounded-md border border-line bg-code py-1 font-mono text-xs leading-5">
      {lines.map((text, offset) => {
        const current = offset === pre.length;
        return (
          <li
            key={offset}
            aria-current={current ? "true" : undefined}
            className={`flex min-w-max ${current ? "border-l-2 border-highlight-line bg-highlight" : "border-l-2 border-transparent"}`}
          >
            <span className="w-12 shrink-0 pr-3 text-right text-subtle select-none">{first !== null ? first + offset : ""}</span>
            <code className="pr-4 whitespace-pre">{text === "" ? " " : text}</code>
          </li>
        );
      })}
    </ol>
  );
}

const chevronTurn = { frame: "group-open/frame:rotate-90", run: "group-open/run:rotate-90" } as const;

function Chevron({ group }: { group: keyof typeof chevronTurn }) {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden className={`mt-1 shrink-0 text-subtle transition ${chevronTurn[group]}`}>
      <path d="M4.5 3 7.5 6 4.5 9" fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
