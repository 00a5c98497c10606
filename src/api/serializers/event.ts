/**
 * Sentry's event JSON: the list form (SimpleEventSerializer) and the detail form
 * (DetailedEventSerializer plus the `previousEventID`/`nextEventID` of GroupEventDetails).
 * Title, culprit and metadata are the event's own, from the same grouping code that named its issue,
 * so two events of one issue with different messages show their own titles as in Sentry.
 */
import { groupEvent } from "../../processing/grouping";
import type { EventUser, IssueMetadata, NormalizedEvent, ProcessingNote } from "../../processing/types";
import type { EventNeighbours, StoredEvent } from "../../model";
import { isoDate } from "./common";
import { eventEntries, type EntryJson } from "./event-entries";

interface TagJson {
  key: string;
  value: string;
}

interface UserJson {
  id: string | null;
  email: string | null;
  username: string | null;
  ip_address: string | null;
  name: string | null;
  geo: Record<string, unknown> | null;
  data: Record<string, unknown> | null;
}

export interface EventSummaryJson {
  id: string;
  "event.type": "error" | "default";
  groupID: string;
  eventID: string;
  projectID: string;
  message: string;
  title: string;
  location: null;
  culprit: string;
  user: UserJson | null;
  tags: TagJson[];
  platform: string;
  dateCreated: string;
  crashFile: null;
}

export interface EventJson {
  id: string;
  groupID: string;
  eventID: string;
  projectID: string;
  type: "error" | "default";
  title: string;
  message: string;
  culprit: string;
  location: null;
  metadata: IssueMetadata;
  platform: string;
  dateCreated: string;
  dateReceived: string;
  dist: string | null;
  release: { version: string } | null;
  tags: TagJson[];
  user: UserJson | null;
  contexts: Record<string, Record<string, unknown>>;
  sdk: { name: string; version: string } | null;
  /** Sentry's name for the event's `extra`. */
  context: Record<string, unknown>;
  /** Sentry's name for the event's `modules`. */
  packages: Record<string, string>;
  entries: EntryJson[];
  errors: { type: string; message: string; data: Record<string, unknown> }[];
  /** What data scrubbing changed, as Sentry's `_meta` remarks; paths are the SDK payload's (src/processing/scrub). */
  _meta: Record<string, unknown>;
  fingerprints: string[];
  crashFile: null;
  userReport: null;
  sdkUpdates: never[];
  previousEventID: string | null;
  nextEventID: string | null;
}

/** Sentry's EventError messages for the notes our normaliser writes. */
const ERROR_MESSAGES: Record<string, string> = {
  invalid_data: "Discarded invalid value",
  invalid_attribute: "Discarded unknown attribute",
  value_too_long: "Discarded value due to exceeding maximum length",
  clock_drift: "Clock drift detected in SDK",
  past_timestamp: "Invalid timestamp (in distant past)",
  future_timestamp: "Invalid timestamp (in future)",
};

function serializeError(note: ProcessingNote): EventJson["errors"][number] {
  // Source-map notes say why in words, with their ids and URLs (src/symbolication).
  if (note.reason !== undefined) return { type: note.type, message: note.reason, data: { ...note.data } };
  const data: Record<string, unknown> = {};
  if (note.name !== undefined) data.name = note.name;
  if (note.value !== undefined) data.value = note.value;
  return { type: note.type, message: ERROR_MESSAGES[note.type] ?? "Event processing note", data };
}

function serializeUser(user: EventUser | undefined): UserJson | null {
  if (!user) return null;
  return {
    id: user.id ?? null,
    email: user.email ?? null,
    username: user.username ?? null,
    ip_address: user.ip_address ?? null,
    name: user.name ?? null,
    geo: user.geo ?? null,
    data: user.data ?? null,
  };
}

/** Sentry's API lists tags sorted by key. */
function serializeTags(tags: [string, string][]): TagJson[] {
  return tags
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The part of the event JSON that every kind of event (error or transaction) serves the same way. */
export function eventBody(event: NormalizedEvent): Pick<EventJson, "dist" | "release" | "tags" | "user" | "contexts" | "sdk" | "context" | "packages" | "errors" | "_meta"> {
  return {
    dist: event.dist ?? null,
    release: event.release ? { version: event.release } : null,
    tags: serializeTags(event.tags),
    user: serializeUser(event.user),
    contexts: event.contexts,
    sdk: event.sdk ? { name: event.sdk.name, version: event.sdk.version } : null,
    context: event.extra ?? {},
    packages: event.modules ?? {},
    errors: event.errors.map(serializeError),
    _meta: event._meta ?? {},
  };
}

const eventType = (event: NormalizedEvent) => (event.exception.length > 0 ? "error" : "default");

export function serializeEventSummary(stored: StoredEvent): EventSummaryJson {
  const event = stored.payload;
  const { title, culprit } = groupEvent(event);
  return {
    id: stored.eventId,
    "event.type": eventType(event),
    groupID: stored.issueId,
    eventID: stored.eventId,
    projectID: stored.projectId,
    message: event.logentry?.formatted ?? "",
    title,
    location: null,
    culprit,
    user: serializeUser(event.user),
    tags: serializeTags(event.tags),
    platform: event.platform,
    dateCreated: isoDate(stored.timestamp),
    crashFile: null,
  };
}

export function serializeEvent(stored: StoredEvent, neighbours: EventNeighbours): EventJson {
  const event = stored.payload;
  const { title, culprit, metadata } = groupEvent(event);
  return {
    id: stored.eventId,
    groupID: stored.issueId,
    eventID: stored.eventId,
    projectID: stored.projectId,
    type: eventType(event),
    title,
    message: event.logentry?.formatted ?? "",
    culprit,
    location: null,
    metadata,
    platform: event.platform,
    dateCreated: isoDate(stored.timestamp),
    dateReceived: isoDate(stored.received),
    ...eventBody(event),
    entries: eventEntries(event),
    fingerprints: [stored.groupingHash],
    crashFile: null,
    userReport: null,
    sdkUpdates: [],
    previousEventID: neighbours.previousEventId,
    nextEventID: neighbours.nextEventId,
  };
}
