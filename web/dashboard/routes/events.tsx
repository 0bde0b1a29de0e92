import { eventDetail, eventLog } from "../../../app/events/eventLog.ts";
import { EVENT_LOG_TYPES } from "../../../domain/webhookEndpoints.ts";
import { EventPage, EventsPage } from "../pages/webhooks.tsx";
import { dashboardPageOf, pagerLinks } from "../paging.ts";
import { attempt } from "../refusals.ts";
import {
  actorOf,
  type DashboardDeps,
  notFound,
  PAGE_SIZE,
  type SignedInApp,
  session,
} from "./shared.tsx";

/**
 * `/dashboard/events`: the merchant's event log, newest first, by type; and one event's page,
 * its payload as delivered and its deliveries: the read models of GET /api/events.
 */
export function registerEvents(app: SignedInApp, deps: DashboardDeps): void {
  app.get("/events", async (c) => {
    const { page, at } = dashboardPageOf(c, "events", PAGE_SIZE);
    const asked = c.req.query("type") ?? "";
    // An unknown type (typed by hand) filters nothing, as the other lists' filters.
    const type = (EVENT_LOG_TYPES as readonly string[]).includes(asked) ? asked : "";
    const result = await eventLog(deps, actorOf(c), type ? [type] : null, page);
    return c.html(
      <EventsPage
        session={session(c)}
        events={result.rows}
        type={type}
        pager={pagerLinks(at, result.nextCursor)}
      />,
    );
  });

  app.get("/events/:id", async (c) => {
    const found = await attempt(() => eventDetail(deps, actorOf(c), c.req.param("id")));
    if (!found.ok) return notFound(c, "event");
    return c.html(
      <EventPage session={session(c)} event={found.event} deliveries={found.deliveries} />,
    );
  });
}
