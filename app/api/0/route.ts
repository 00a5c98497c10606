import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/", {
  /** Sentry's index: who is calling and, for a token, its scopes (what `sentry-cli info` prints). */
  GET: async (_request, _params, { principal }) =>
    json({
      version: "0",
      auth: principal.kind === "token" ? { scopes: principal.token.scopes } : null,
      user: { id: principal.user.id, email: principal.user.email, name: principal.user.name, username: principal.user.email },
    }),
});
