import type { Project, StoredAttachment } from "@/src/model";
import { formatBytes } from "../format";

/**
 * An event's attachments, each a download through the API (`?download=1`), which serves it as a file
 * (`Content-Disposition: attachment`), never as a page.
 */
export function EventAttachments({ attachments, project, organizationSlug }: { attachments: StoredAttachment[]; project: Project; organizationSlug: string }) {
  return (
    <ul className="divide-y divide-line text-sm" data-testid="event-attachments">
      {attachments.map((attachment) => (
        <li key={attachment.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2" data-testid="event-attachment">
          <a
            href={`/api/0/projects/${organizationSlug}/${project.slug}/events/${attachment.eventId}/attachments/${attachment.id}/?download=1`}
            className="font-medium text-accent hover:underline"
            download={attachment.filename}
          >
            {attachment.filename}
          </a>
          <span className="text-xs text-muted">{attachment.attachmentType}</span>
          <span className="text-xs text-muted">{attachment.contentType ?? "application/octet-stream"}</span>
          <span className="ml-auto text-xs text-muted tabular-nums">{formatBytes(attachment.size)}</span>
        </li>
      ))}
    </ul>
  );
}
