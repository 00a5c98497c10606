/** An alert rule's delivery log (issue and metric rules alike): what was sent, to whom, how it went. */
import { formatAbsolute } from "@/components/format";
import { Card, Pill } from "@/components/ui";
import type { AlertDelivery } from "@/src/model";

export function DeliveryTable({ deliveries }: { deliveries: AlertDelivery[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-muted">Nothing sent yet.</p>;
  return (
    <Card className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="delivery-log">
        <thead className="text-left text-xs text-muted">
          <tr>
            <th className="px-3 py-2">When</th>
            <th className="px-3 py-2">Why</th>
            <th className="px-3 py-2">To</th>
            <th className="px-3 py-2">Status</th>
            <th className="px-3 py-2">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id} className="border-t border-zinc-200 dark:border-zinc-800">
              <td className="px-3 py-2 whitespace-nowrap">{formatAbsolute(d.dateCreated)}</td>
              <td className="px-3 py-2">{d.message.trigger}{d.message.issue ? `: ${d.message.issue.shortId}` : ""}</td>
              <td className="px-3 py-2 break-all">{d.channel === "email" ? d.target : `${d.format ?? "json"} webhook ${d.target}`}</td>
              <td className="px-3 py-2">
                <Pill tone={d.status === "sent" ? "green" : d.status === "failed" ? "red" : "amber"}>{d.status}</Pill>
                {d.lastError && d.status !== "sent" ? <span className="block text-xs text-subtle">{d.lastError}</span> : null}
              </td>
              <td className="px-3 py-2">{d.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
