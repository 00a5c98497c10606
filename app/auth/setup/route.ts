import { appErrorOf } from "@/components/app-error";
import { errorAnswer, jsonAnswer, readAuthRequest, refuseCrossOrigin, seeOther, sessionCookieHeaders } from "@/app/_lib/auth-route";
import { problemOf } from "@/app/_lib/form-problems";
import { getRuntime } from "@/src/runtime";
import { isSetupToken } from "@/app/_lib/setup-token";
import { startSession } from "@/src/services/accounts/login";
import { ensureDefaults } from "@/src/services/projects/ensure-defaults";
import { createOwner, needsSetup } from "@/src/services/accounts/users";

export const dynamic = "force-dynamic";

/**
 * First run only: creates the owner of the default organisation and signs them in — for the holder of
 * the setup link printed in the console (`token`).
 */
export async function POST(request: Request): Promise<Response> {
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readAuthRequest(request);
  if (!body) return jsonAnswer(400, { detail: "Send the email, name and password as a form or as JSON." });
  const { storage, config } = getRuntime();
  if (!(await needsSetup(storage))) {
    return body.json ? jsonAnswer(409, { detail: "Setup is already complete: an account exists; sign in instead." }) : seeOther("/login");
  }
  const token = body.fields.token ?? "";
  const back = (error: string) => seeOther(`/setup?${new URLSearchParams({ token, error })}`);
  if (!isSetupToken(token)) {
    return body.json
      ? jsonAnswer(403, { detail: "The setup token is missing or wrong: use the setup link printed in the server console." })
      : seeOther(`/setup?${new URLSearchParams({ error: "setup_token" })}`);
  }
  if (!body.json && body.fields.password !== body.fields.confirm) return back("mismatch");
  try {
    const { organization } = await ensureDefaults(storage);
    const user = await createOwner(
      storage,
      organization,
      { email: body.fields.email ?? "", name: body.fields.name ?? "", password: body.fields.password ?? "" },
      { via: "setup", ipAddress: body.ipAddress },
    );
    const started = await startSession(storage, user, Date.now(), config.auth.sessionTtlMs);
    const cookies = sessionCookieHeaders(started);
    if (body.json) return jsonAnswer(200, { user: { id: user.id, email: user.email, name: user.name }, organization: organization.slug }, cookies);
    return seeOther(`/organizations/${organization.slug}/projects`, cookies);
  } catch (error) {
    if (body.json) return errorAnswer(error);
    const appError = appErrorOf(error);
    if (!appError) throw error;
    if (appError.code === "conflict") return seeOther("/login");
    return back(problemOf(appError.code, appError.message));
  }
}
