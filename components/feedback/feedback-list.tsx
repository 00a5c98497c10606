import Link from "next/link";
import type { Feedback } from "@/src/model";
import { RelativeTime } from "@/components/ui";

/** Feedback as a list of cards: who, when, the message, and where it was sent from. */
export function FeedbackList({ items, organizationSlug, now }: { items: Feedback[]; organizationSlug: string; now: number }) {
  return (
    <ul className="divide-y divide-line" data-testid="feedback-list">
      {items.map((feedback) => (
        <li key={feedback.id} className="px-4 py-3" data-testid="feedback-item">
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <Link href={`/organizations/${organizationSlug}/feedback/${feedback.id}?project=${feedback.projectId}`} className="font-medium text-accent hover:underline" data-testid="feedback-author">
              {feedback.name ?? feedback.email ?? "Anonymous"}
            </Link>
            <span className="text-xs text-muted">
              <RelativeTime ms={feedback.dateCreated} now={now} />
            </span>
          </div>
          {feedback.email ? <p className="text-xs text-subtle">{feedback.email}</p> : null}
          <p className="mt-1 line-clamp-3 text-sm whitespace-pre-wrap" data-testid="feedback-message">
            {feedback.message}
          </p>
          {feedback.url ? <p className="mt-1 truncate font-mono text-xs text-subtle">{feedback.url}</p> : null}
        </li>
      ))}
    </ul>
  );
}
