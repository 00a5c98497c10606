import type { ExceptionValue } from "@/src/processing/types";
import { Card, Pill } from "../ui";
import { StackTraceView } from "./stack-trace";

/** The thrown exception first, then what caused it (the protocol lists them oldest first). */
export function ExceptionChain({ exceptions }: { exceptions: ExceptionValue[] }) {
  const newestFirst = [...exceptions].reverse();
  return (
    <div className="space-y-3">
      {newestFirst.map((exception, index) => (
        <div key={index}>
          {index > 0 ? <p className="mb-1.5 text-xs font-semibold tracking-wide text-subtle uppercase">Caused by</p> : null}
          <Card className="overflow-hidden">
            <div className="border-b border-line px-4 py-3">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-semibold [overflow-wrap:anywhere]" data-testid="exception-type">
                  {exception.type ?? "Error"}
                </h3>
                {exception.mechanism ? <MechanismBadges mechanism={exception.mechanism} /> : null}
              </div>
              {exception.value ? <p className="mt-1 [overflow-wrap:anywhere] whitespace-pre-wrap text-muted">{exception.value}</p> : null}
              {exception.module ? <p className="mt-1 font-mono text-xs text-subtle">{exception.module}</p> : null}
            </div>
            {exception.stacktrace && exception.stacktrace.frames.length > 0 ? (
              <StackTraceView stacktrace={exception.stacktrace} />
            ) : (
              <p className="px-4 py-3 text-xs text-subtle">No stack trace was sent with this exception.</p>
            )}
          </Card>
        </div>
      ))}
    </div>
  );
}

function MechanismBadges({ mechanism }: { mechanism: NonNullable<ExceptionValue["mechanism"]> }) {
  return (
    <>
      <Pill title={mechanism.description}>mechanism: {mechanism.type}</Pill>
      {mechanism.handled === false ? (
        <Pill tone="red" title="The error reached a global handler: nothing in the app caught it">
          unhandled
        </Pill>
      ) : mechanism.handled === true ? (
        <Pill tone="green">handled</Pill>
      ) : null}
    </>
  );
}
