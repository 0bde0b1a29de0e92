import type { Context } from "hono";
import { createApiKey, ownApiKeys, revokeOwnApiKey } from "../../../app/keys/manageKeys.ts";
import { CreateApiKeySchema, createApiKeyKnownKeys } from "../../../app/keys/schema.ts";
import { type FormFields, formToBody } from "../forms.ts";
import { KeysPage } from "../pages/keysPage.tsx";
import { validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, notFound, type SignedInRoutes, session } from "./shared.tsx";

/** `/dashboard/keys`: the merchant's API keys, a new one (shown once), revoking one. */
export const registerKeys: SignedInRoutes = (app, deps) => {
  const keysPage = async (
    c: Context<DashboardEnv>,
    extra: {
      created?: { key: string; name: string };
      notice?: string;
      values?: FormFields;
      errors?: Record<string, string>;
    },
    status: 200 | 201 | 400 = 200,
  ) => {
    const keys = await ownApiKeys(deps, actorOf(c));
    return c.html(
      <KeysPage
        session={session(c)}
        keys={keys}
        created={extra.created}
        notice={extra.notice}
        state={{ values: extra.values ?? {}, errors: extra.errors ?? {} }}
      />,
      status,
    );
  };
  app.get("/keys", (c) => keysPage(c, { notice: c.req.query("notice") }));
  app.post("/keys", async (c) => {
    const form = formOf(c);
    const body = formToBody(form, ["name", "scope"]);
    const input = validated(CreateApiKeySchema, body, createApiKeyKnownKeys);
    if (!input.ok) return keysPage(c, { values: form, errors: input.fields }, 400);
    const { row, key } = await createApiKey(deps, actorOf(c), {
      name: input.data.name,
      scope: input.data.scope ?? "write",
    });
    // The key is in this answer only (no redirect: it is never stored to show again).
    return keysPage(c, { created: { key, name: row.name } }, 201);
  });
  app.post("/keys/:id/revoke", async (c) => {
    if (!(await revokeOwnApiKey(deps, actorOf(c), c.req.param("id"))))
      return notFound(c, "API key");
    return c.redirect("/dashboard/keys?notice=revoked", 303);
  });
};
