import type { ReactNode } from "react";

/**
 * A comment's markdown, rendered safely: only text nodes and a fixed set of elements (paragraphs,
 * line breaks, `code`, fenced code blocks, **bold**, *italic*, http(s) links) are produced, so any
 * HTML in the text is shown as text, never interpreted. Deliberately small: comments, not documents.
 */
export function CommentMarkdown({ text }: { text: string }) {
  const blocks = text.replace(/\r\n?/g, "\n").split(/\n{2,}/);
  return (
    <div className="space-y-2 text-sm [overflow-wrap:anywhere]">
      {blocks.map((block, index) =>
        /^```/.test(block) ? (
          <pre key={index} className="overflow-x-auto rounded bg-surface-2 p-2 font-mono text-xs">
            {block.replace(/^```[^\n]*\n?/, "").replace(/\n?```$/, "")}
          </pre>
        ) : (
          <p key={index}>
            {block.split("\n").map((line, lineIndex) => (
              <span key={lineIndex}>
                {lineIndex > 0 ? <br /> : null}
                {inline(line)}
              </span>
            ))}
          </p>
        ),
      )}
    </div>
  );
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*]+\*)|(\[[^\]]+\]\(https?:\/\/[^)\s]+\))/g;

function inline(line: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of line.matchAll(INLINE)) {
    const [token] = match;
    const at = match.index;
    if (at > last) parts.push(line.slice(last, at));
    if (token.startsWith("`")) parts.push(<code key={at} className="rounded bg-surface-2 px-1 font-mono text-xs">{token.slice(1, -1)}</code>);
    else if (token.startsWith("**")) parts.push(<strong key={at}>{token.slice(2, -2)}</strong>);
    else if (token.startsWith("*")) parts.push(<em key={at}>{token.slice(1, -1)}</em>);
    else {
      const [, label = "", href = ""] = /^\[([^\]]+)\]\((.+)\)$/.exec(token) ?? [];
      parts.push(
        <a key={at} href={href} rel="noopener noreferrer nofollow" target="_blank" className="text-accent underline">
          {label}
        </a>,
      );
    }
    last = at + token.length;
  }
  if (last < line.length) parts.push(line.slice(last));
  return parts;
}
