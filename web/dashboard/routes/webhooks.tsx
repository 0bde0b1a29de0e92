import type { Context } from "hono";
import {
  changeWebhookEndpoint,
  createWebhookEndpoint,
  endpointDeliveryLog,
  ownWebhookEndpoints,
  removeWebhookEndpoint,
  rotateSecret,
  sendTestEvent,
  type WebhookEndpointRow,
} from "../../../app/webhookEndpoints/manageEndpoints.ts";
import {
  CreateWebhookEndpointSchema,
  createKnownKeys,
  UpdateWebhookEndpointSchema,
  updateKnownKeys,
} from "../../../app/webhookEndpoints/schema.ts";
import { WEBHOOK_EVENT_FILTERS } from "../../../domain/webhookEndpoints.ts";
import { webhookUrlRule } from "../../../domain/webhookUrlPolicy.ts";
import { type FormFields, formToBody } from "../forms.ts";
import { eventField } from "../pages/eventFilters.tsx";
import { WebhookEndpointPage } from "../pages/webhookEndpointPage.tsx";
import { WebhookSecretPage } from "../pages/webhookSecretPage.tsx";
import { WebhooksPage } from "../pages/webhooksPage.tsx";
import { dashboardPageOf, pagerLinks } from "../paging.ts";
import { attempt, type FormRefusal, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, notFound, PAGE_SIZE, type SignedInRoutes, session } from "./shared.tsx";

/** The API's body from the form: its URL, and the ticked event filters (none: every type). */
function endpointBody(form: FormFields): Record<string, unknown> {
  const events = WEBHOOK_EVENT_FILTERS.filter((filter) => form[eventField(filter)]);
  return { ...formToBody(form, ["url"]), events: events.length > 0 ? events : null };
}

/** An endpoint's form filled with what it has now. */
const endpointValues = (endpoint: WebhookEndpointRow): FormFields => ({
  url: endpoint.url,
  ...Object.fromEntries((endpoint.events ?? []).map((filter) => [eventField(filter), "on"])),
});

/**
 * `/dashboard/webhooks`: the merchant's webhook endpoints, a new one (its secret shown once), and
 * each one's page (its delivery log; test, rotate, disable or enable, change, delete): the use
 * cases of POST/GET/PATCH/DELETE /api/webhook-endpoints.
 */
export const registerWebhooks: SignedInRoutes = (app, deps) => {
  const listPage = async (
    c: Context<DashboardEnv>,
    state: { values?: FormFields; errors?: Record<string, string>; problem?: string } = {},
    status: 200 | FormRefusal["status"] = 200,
  ) =>
    c.html(
      <WebhooksPage
        session={session(c)}
        endpoints={await ownWebhookEndpoints(deps, actorOf(c))}
        notice={c.req.query("notice")}
        state={{ values: state.values ?? {}, errors: state.errors ?? {}, problem: state.problem }}
        urlRule={webhookUrlRule(deps.allowPrivateWebhooks)}
      />,
      status,
    );

  /** The endpoint's page; a 404 page when the merchant has no such endpoint. */
  const endpointPage = async (
    c: Context<DashboardEnv>,
    state: { values?: FormFields; errors?: Record<string, string>; problem?: string } = {},
    status: 200 | FormRefusal["status"] = 200,
  ) => {
    const { page, at } = dashboardPageOf(c, "deliveries", PAGE_SIZE);
    const log = await attempt(() =>
      endpointDeliveryLog(deps, actorOf(c), c.req.param("id") ?? "", page),
    );
    if (!log.ok) return notFound(c, "webhook endpoint");
    return c.html(
      <WebhookEndpointPage
        session={session(c)}
        endpoint={log.endpoint}
        deliveries={log.rows}
        pager={pagerLinks(at, log.nextCursor)}
        notice={c.req.query("notice")}
        state={{
          values: state.values ?? endpointValues(log.endpoint),
          errors: state.errors ?? {},
          problem: state.problem,
        }}
      />,
      status,
    );
  };

  /** An endpoint's secret, new or rotated: shown in this answer only, never stored to show again. */
  const secretPage = (
    c: Context<DashboardEnv>,
    made: { row: WebhookEndpointRow; secret: string },
    rotated: boolean,
    status: 200 | 201 = 200,
  ) =>
    c.html(
      <WebhookSecretPage
        session={session(c)}
        endpoint={made.row}
        secret={made.secret}
        rotated={rotated}
      />,
      status,
    );

  app.get("/webhooks", (c) => listPage(c));
  app.post("/webhooks", async (c) => {
    const form = formOf(c);
    const input = validated(CreateWebhookEndpointSchema, endpointBody(form), createKnownKeys);
    const created = input.ok
      ? await attempt(() => createWebhookEndpoint(deps, actorOf(c), input.data))
      : input;
    if (!created.ok) {
      const fieldless = Object.keys(created.fields).length === 0;
      return listPage(
        c,
        { values: form, errors: created.fields, problem: fieldless ? created.message : undefined },
        created.status,
      );
    }
    // The secret is in this answer only (no redirect: it is never stored to show again).
    return secretPage(c, created, false, 201);
  });

  app.get("/webhooks/:id", (c) => endpointPage(c));
  app.post("/webhooks/:id", async (c) => {
    const form = formOf(c);
    const input = validated(UpdateWebhookEndpointSchema, endpointBody(form), updateKnownKeys);
    const changed = input.ok
      ? await attempt(async () => ({
          row: await changeWebhookEndpoint(deps, actorOf(c), c.req.param("id"), input.data),
        }))
      : input;
    if (changed.ok) return c.redirect(`/dashboard/webhooks/${changed.row.id}?notice=saved`, 303);
    if (changed.status === 404) return notFound(c, "webhook endpoint");
    return endpointPage(c, { values: form, errors: changed.fields }, changed.status);
  });

  /** A button's use case, then back to the endpoint's page with its notice (or its refusal). */
  const action =
    (run: (c: Context<DashboardEnv>, id: string) => Promise<unknown>, notice: string) =>
    async (c: Context<DashboardEnv>) => {
      const id = c.req.param("id") ?? "";
      const done = await attempt(async () => {
        await run(c, id);
        return {};
      });
      if (done.ok) return c.redirect(`/dashboard/webhooks/${id}?notice=${notice}`, 303);
      if (done.status === 404) return notFound(c, "webhook endpoint");
      if (!done.retryAfterSeconds) return endpointPage(c, { problem: done.message }, done.status);
      c.header("Retry-After", String(done.retryAfterSeconds));
      const minutes = Math.ceil(done.retryAfterSeconds / 60);
      const problem = `${done.message}: try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
      return endpointPage(c, { problem }, done.status);
    };
  app.post(
    "/webhooks/:id/test",
    action((c, id) => sendTestEvent(deps, actorOf(c), id), "test_sent"),
  );
  app.post(
    "/webhooks/:id/disable",
    action((c, id) => changeWebhookEndpoint(deps, actorOf(c), id, { enabled: false }), "disabled"),
  );
  app.post(
    "/webhooks/:id/enable",
    action((c, id) => changeWebhookEndpoint(deps, actorOf(c), id, { enabled: true }), "enabled"),
  );
  app.post("/webhooks/:id/rotate-secret", async (c) => {
    const rotated = await attempt(() => rotateSecret(deps, actorOf(c), c.req.param("id")));
    if (!rotated.ok) return notFound(c, "webhook endpoint");
    return secretPage(c, rotated, true);
  });
  app.post("/webhooks/:id/delete", async (c) => {
    const deleted = await attempt(async () => ({
      row: await removeWebhookEndpoint(deps, actorOf(c), c.req.param("id")),
    }));
    if (!deleted.ok) return notFound(c, "webhook endpoint");
    return c.redirect("/dashboard/webhooks?notice=deleted", 303);
  });
};
