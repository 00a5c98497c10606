"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionPrincipal, actorFor } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { createApiToken, revokeApiToken } from "@/src/services/accounts/tokens";
import { changePassword } from "@/src/services/accounts/users";

export async function changePasswordAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const principal = await actionPrincipal();
    const newPassword = String(form.get("newPassword") ?? "");
    if (newPassword !== String(form.get("confirm") ?? "")) return { error: "The two new passwords are not the same." };
    // Other sessions end (a stolen one too); this one stays so the person is not thrown out.
    await changePassword(getRuntime().storage, principal.user, {
      currentPassword: String(form.get("currentPassword") ?? ""),
      newPassword,
      keepSessionId: principal.session.id,
    });
    return { message: "Password changed. Your other sessions have been signed out." };
  });
}

export async function createTokenAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const principal = await actionPrincipal();
    const { token } = await createApiToken(getRuntime().storage, await actorFor(principal), principal.user, {
      name: String(form.get("name") ?? ""),
      scopes: form.getAll("scopes").map(String),
    });
    revalidatePath("/settings/account");
    return { message: "Token created.", secret: token };
  });
}

export async function revokeTokenAction(tokenId: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const principal = await actionPrincipal();
    await revokeApiToken(getRuntime().storage, await actorFor(principal), principal.user, tokenId);
    revalidatePath("/settings/account");
    return { message: "Token revoked." };
  });
}
