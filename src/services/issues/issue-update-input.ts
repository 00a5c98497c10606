/**
 * Sentry's issue update body (`PUT /issues/{id}/` and the bulk variants): status with statusDetails,
 * assignedTo, isBookmarked, inbox (false = mark reviewed). Unknown fields are refused by name, so
 * nothing is silently dropped.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import { ISSUE_STATUSES } from "../../model";
import { parseInput } from "../parse-input";

// Messages without the field: parseInput prefixes the path (statusDetails.ignoreCount: …).
const positiveInt = () => z.number({ message: "expected a positive integer" }).int("expected a positive integer").positive("expected a positive integer");

const statusDetails = z
  .object({
    inRelease: z.string({ message: 'expected a release version or "latest"' }).min(1, 'expected a release version or "latest"').optional(),
    inNextRelease: z.literal(true, { message: "expected true" }).optional(),
    inCommit: z.unknown().optional(),
    ignoreDuration: positiveInt().optional(),
    ignoreUntil: z.string({ message: "expected an ISO 8601 date" }).optional(),
    ignoreCount: positiveInt().optional(),
    ignoreWindow: positiveInt().optional(),
    ignoreUserCount: positiveInt().optional(),
    ignoreUserWindow: z.unknown().optional(),
  })
  .strict();

const body = z
  .object({
    status: z.unknown().optional(),
    substatus: z.unknown().optional(),
    statusDetails: statusDetails.optional(),
    assignedTo: z.union([z.string(), z.null()], { message: "assignedTo: expected \"user:<id>\", \"team:<id>\", an email or \"\"" }).optional(),
    isBookmarked: z.boolean({ message: "isBookmarked: expected true or false" }).optional(),
    inbox: z.boolean({ message: "inbox: expected true or false" }).optional(),
    merge: z.union([z.literal(1), z.literal(true), z.literal("1")], { message: "merge: expected 1" }).optional(),
  })
  .strict();

export type StatusChange =
  | { status: "unresolved" }
  | { status: "resolved"; release: null | { type: "in_release"; version: string } | { type: "in_next_release" } }
  | {
      status: "ignored";
      escalating: boolean;
      /** Minutes from now, or an absolute time (Unix ms). */
      until: { minutes: number } | { at: number } | null;
      count: number | null;
      window: number | null;
      userCount: number | null;
    };

export interface IssueUpdate {
  status: StatusChange | null;
  /** undefined = unchanged; null = clear; otherwise the identifier as sent. */
  assignedTo: string | null | undefined;
  isBookmarked: boolean | undefined;
  inbox: boolean | undefined;
  merge: boolean;
}

const bad = (message: string): never => {
  throw new AppError("bad_request", message);
};

export function parseIssueUpdate(value: unknown): IssueUpdate {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return bad("expected a JSON object");
  const parsed = parseInput(body, value);
  if (parsed.merge !== undefined && Object.keys(parsed).length > 1) return bad("merge: merge alone; other changes go in their own request");
  const details = parsed.statusDetails;
  let status = parsed.status;
  if (status === "resolvedInNextRelease") status = "resolved";
  if (status === undefined && details !== undefined) return bad("statusDetails: needs a status (resolved or ignored)");
  let change: StatusChange | null = null;
  if (status !== undefined) {
    if (typeof status !== "string" || !(ISSUE_STATUSES as readonly string[]).includes(status)) {
      return bad(`status: expected one of ${ISSUE_STATUSES.join(", ")}, resolvedInNextRelease`);
    }
    if (details?.inCommit !== undefined) return bad("statusDetails.inCommit: resolving in a commit is not supported; use inRelease or inNextRelease");
    if (details?.ignoreUserWindow !== undefined) return bad("statusDetails.ignoreUserWindow: not supported; ignoreUserCount counts new users since ignoring");
    const releaseKeys = ["inRelease", "inNextRelease"].filter((key) => details?.[key as "inRelease"] !== undefined);
    const ignoreKeys = ["ignoreDuration", "ignoreUntil", "ignoreCount", "ignoreWindow", "ignoreUserCount"].filter(
      (key) => details?.[key as "ignoreCount"] !== undefined,
    );
    if (status === "resolved") {
      if (ignoreKeys.length > 0) return bad(`statusDetails.${ignoreKeys[0]}: only with status ignored`);
      if (releaseKeys.length > 1) return bad("statusDetails: give inRelease or inNextRelease, not both");
      const release =
        parsed.status === "resolvedInNextRelease" || details?.inNextRelease
          ? { type: "in_next_release" as const }
          : details?.inRelease !== undefined
            ? { type: "in_release" as const, version: details.inRelease }
            : null;
      change = { status: "resolved", release };
    } else if (status === "unresolved") {
      if (releaseKeys.length + ignoreKeys.length > 0) return bad(`statusDetails.${[...releaseKeys, ...ignoreKeys][0]}: not with status unresolved`);
      change = { status: "unresolved" };
    } else {
      if (releaseKeys.length > 0) return bad(`statusDetails.${releaseKeys[0]}: only with status resolved`);
      if (details?.ignoreDuration !== undefined && details.ignoreUntil !== undefined) return bad("statusDetails: give ignoreDuration or ignoreUntil, not both");
      if (details?.ignoreWindow !== undefined && details.ignoreCount === undefined) return bad("statusDetails.ignoreWindow: needs ignoreCount");
      let until: { minutes: number } | { at: number } | null = null;
      if (details?.ignoreDuration !== undefined) until = { minutes: details.ignoreDuration };
      if (details?.ignoreUntil !== undefined) {
        const at = Date.parse(details.ignoreUntil);
        if (Number.isNaN(at)) return bad("statusDetails.ignoreUntil: expected an ISO 8601 date");
        until = { at };
      }
      const substatus = parsed.substatus;
      if (substatus !== undefined && !["archived_until_escalating", "archived_until_condition_met", "archived_forever"].includes(String(substatus))) {
        return bad("substatus: expected archived_until_escalating, archived_until_condition_met or archived_forever");
      }
      const escalating = substatus === "archived_until_escalating";
      if (escalating && ignoreKeys.length > 0) return bad(`statusDetails.${ignoreKeys[0]}: not with substatus archived_until_escalating`);
      change = {
        status: "ignored",
        escalating,
        until,
        count: details?.ignoreCount ?? null,
        window: details?.ignoreWindow ?? null,
        userCount: details?.ignoreUserCount ?? null,
      };
    }
  } else if (parsed.substatus !== undefined) {
    return bad("substatus: needs a status");
  }
  if (change === null && Object.keys(parsed).length === 0) return bad("nothing to change: give status, assignedTo, isBookmarked, inbox or merge");
  return {
    status: change,
    assignedTo: parsed.assignedTo === undefined ? undefined : parsed.assignedTo === "" ? null : parsed.assignedTo,
    isBookmarked: parsed.isBookmarked,
    inbox: parsed.inbox,
    merge: parsed.merge !== undefined,
  };
}
