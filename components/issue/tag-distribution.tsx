import Link from "next/link";
import type { TagDistribution } from "@/src/model";
import { formatPercent } from "../format";

/** Each tag key with its top values as bars (share of the events that carry the tag). */
export function TagDistributionList({
  tags,
  filterHref,
  valuesHref,
}: {
  tags: TagDistribution[];
  filterHref: (key: string, value: string) => string;
  /** The page of all the key's values (issue 35). */
  valuesHref?: (key: string) => string;
}) {
  if (tags.length === 0) return <p className="text-xs text-subtle">No tags recorded yet.</p>;
  return (
    <ul className="space-y-4" data-testid="tag-distribution">
      {tags.map((tag) => (
        <li key={tag.key}>
          <p className="mb-1 flex justify-between text-xs">
            {valuesHref ? (
              <Link href={valuesHref(tag.key)} className="font-semibold hover:underline" title={`All values of ${tag.key}`}>
                {tag.key}
              </Link>
            ) : (
              <span className="font-semibold">{tag.key}</span>
            )}
            <span className="text-subtle tabular-nums">{tag.totalValues.toLocaleString("en-US")}</span>
          </p>
          <ul className="space-y-1">
            {tag.topValues.map((value) => {
              const percent = formatPercent(value.count, tag.totalValues);
              const width = tag.totalValues > 0 ? Math.max(2, (value.count / tag.totalValues) * 100) : 0;
              return (
                <li key={value.value}>
                  <Link
                    href={filterHref(tag.key, value.value)}
                    className="relative flex items-center justify-between gap-2 overflow-hidden rounded px-2 py-1 text-xs hover:ring-1 hover:ring-line-strong"
                    title={`${tag.key}:${value.value} — ${value.count} events (${percent}); show issues with this tag`}
                  >
                    <span aria-hidden className="absolute inset-y-0 left-0 bg-accent-soft" style={{ width: `${width}%` }} />
                    <span className="relative truncate font-mono">{value.value}</span>
                    <span className="relative shrink-0 font-medium tabular-nums">{percent}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ul>
  );
}
