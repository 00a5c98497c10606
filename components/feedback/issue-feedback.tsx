import type { Feedback } from "@/src/model";
import { Card, Section } from "@/components/ui";
import { FeedbackList } from "./feedback-list";

/** The issue page's "User feedback" block: what users wrote about this issue's events (nothing when none). */
export function IssueFeedback({ items, organizationSlug, now }: { items: Feedback[]; organizationSlug: string; now: number }) {
  if (items.length === 0) return null;
  return (
    <div className="mb-4" data-testid="issue-feedback">
      <Section title={`User feedback (${items.length})`} id="user-feedback">
        <Card>
          <FeedbackList items={items} organizationSlug={organizationSlug} now={now} />
        </Card>
      </Section>
    </div>
  );
}
