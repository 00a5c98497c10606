"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { cancelInvite, changeRole, createInvite, removeMember, transferOwnership } from "@/src/services/accounts/members";

/** Each action re-checks session and membership; the scope and role rules live in the members service. */
const refresh = (slug: string) => revalidatePath(`/settings/${slug}/members`);

export async function inviteAction(organizationSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { storage, publicUrl } = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug);
    const email = String(form.get("email") ?? "").trim();
    const { secret, invite } = await createInvite(
      storage,
      access,
      actor,
      { role: String(form.get("role") ?? ""), teamIds: form.getAll("teams").map(String), email: email === "" ? null : email },
      Date.now(),
    );
    refresh(access.organization.slug);
    return { message: `Invite link for a new ${invite.role} created; it works once, for 7 days.`, secret: `${publicUrl}/invite/${secret}` };
  });
}

export async function cancelInviteAction(organizationSlug: string, inviteId: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { access, actor } = await actionAccess(organizationSlug);
    await cancelInvite(getRuntime().storage, access, actor, inviteId, Date.now());
    refresh(access.organization.slug);
  });
}

export async function changeRoleAction(organizationSlug: string, memberId: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { access, actor } = await actionAccess(organizationSlug);
    const member = await changeRole(getRuntime().storage, access, actor, memberId, String(form.get("role") ?? ""));
    refresh(access.organization.slug);
    return { message: `Role changed to ${member.role}.` };
  });
}

export async function removeMemberAction(organizationSlug: string, memberId: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { access, actor } = await actionAccess(organizationSlug);
    await removeMember(getRuntime().storage, access, actor, memberId);
    refresh(access.organization.slug);
  });
}

export async function transferOwnershipAction(organizationSlug: string, memberId: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { access, actor } = await actionAccess(organizationSlug);
    await transferOwnership(getRuntime().storage, access, actor, memberId);
    refresh(access.organization.slug);
  });
}
