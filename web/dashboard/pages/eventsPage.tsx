import type { DeliveredEvent } from "../../../app/events/eventLog.ts";
import { EVENT_LOG_TYPES } from "../../../domain/webhookEndpoints.ts";
import { DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { at, EventSubject } from "./deliveredEvent.tsx";
import { FilterCard } from "./filterCard.tsx";
import { Pager, type PagerLinks } from "./pager.tsx";
import type { Session } from "./pageSession.ts";

export function EventsPage(props: {
  session: Session;
  events: DeliveredEvent[];
  type: string;
  pager: PagerLinks;
}) {
  return (
    <DashboardLayout title="Events" section="/dashboard/events" {...props.session}>
      <FilterCard
        action="/dashboard/events"
        name="type"
        label="Type"
        options={EVENT_LOG_TYPES.map((type) => [type, type] as const)}
        selected={props.type}
      />
      <section class="card">
        <DataTable
          rows={props.events}
          empty="No events match."
          caption="Your events, newest first, each as it was delivered"
          rowAttributes={(event) => ({ "data-event": event.event_id })}
          columns={[
            { label: "When", cell: (event) => <Time at={at(event.created_at)} /> },
            {
              label: "Type",
              href: (event) => `/dashboard/events/${event.event_id}`,
              cell: (event) => <code>{event.type}</code>,
            },
            { label: "About", cell: (event) => <EventSubject event={event} /> },
          ]}
        />
        <Pager
          base="/dashboard/events"
          query={props.type ? { type: props.type } : {}}
          links={props.pager}
        />
      </section>
    </DashboardLayout>
  );
}
