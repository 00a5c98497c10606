/**
 * The classic Next.js fallback text (≤ 15.1), which Next 16.2+ no longer renders itself
 * (docs/protocol.md §13). Plain on purpose: no stack trace, no internals.
 */
export const CLIENT_ERROR_TEXT =
  "Application error: a client-side exception has occurred (see the browser console for more information).";
export const SERVER_ERROR_TEXT =
  "Application error: a server-side exception has occurred (see the server logs for more information).";

export function ApplicationError({ digest }: { digest?: string }) {
  return (
    <div
      style={{
        fontFamily: "system-ui, sans-serif",
        height: "100vh",
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "center",
        textAlign: "center",
        padding: "0 1rem",
      }}
    >
      <h2 style={{ fontSize: 14, fontWeight: 400, lineHeight: "28px", margin: 0 }}>
        {digest ? SERVER_ERROR_TEXT : CLIENT_ERROR_TEXT}
      </h2>
      {digest ? <p style={{ fontSize: 14, lineHeight: "28px", margin: 0 }}>{`Digest: ${digest}`}</p> : null}
    </div>
  );
}
