import { eventDetail, eventLog } from "../../../app/events/eventLog.ts";
import { EVENT_LOG_TYPES } from "../../../domain/webhookEndpoints.ts";
import { EventPage } from "../pages/eventPage.tsx";
import { EventsPage } from "../pages/eventsPage.tsx";
import { attempt } from "../refusals.ts";
import { actorOf, filterOf, notFound, readList, type SignedInRoutes, session } from "./shared.tsx";

/**
 * `/dashboard/events`: the merchant's event log, newest first, by type; and one event's page,
 * its payload as delivered and its deliveries: the read models of GET /api/events.
 */
export const registerEvents: SignedInRoutes = (app, deps) => {
  app.get("/events", async (c) => {
    const type = filterOf(c, "type", EVENT_LOG_TYPES);
    const list = await readList(c, "events", (actor, page) =>
      eventLog(deps, actor, type ? [type] : null, page),
    );
    return c.html(
      <EventsPage session={list.session} events={list.rows} type={type} pager={list.pager} />,
    );
  });

  app.get("/events/:id", async (c) => {
    const found = await attempt(() => eventDetail(deps, actorOf(c), c.req.param("id")));
    if (!found.ok) return notFound(c, "event");
    return c.html(
      <EventPage session={session(c)} event={found.event} deliveries={found.deliveries} />,
    );
  });
};
