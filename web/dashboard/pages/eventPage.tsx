import type { DeliveredEvent, EventDeliveryRow } from "../../../app/events/eventLog.ts";
import { Badge, DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { at, EventSubject } from "./deliveredEvent.tsx";
import { LastResponse } from "./lastResponse.tsx";
import type { Session } from "./pageSession.ts";

export function EventPage(props: {
  session: Session;
  event: DeliveredEvent;
  deliveries: EventDeliveryRow[];
}) {
  const { event } = props;
  return (
    <DashboardLayout title="Event" section="/dashboard/events" {...props.session}>
      <section class="card">
        <h2>
          <code>{event.type}</code>
        </h2>
        <dl class="facts">
          <dt>Event id</dt>
          <dd>
            <code>{event.event_id}</code>
          </dd>
          <dt>When</dt>
          <dd>
            <Time at={at(event.created_at)} />
          </dd>
          <dt>About</dt>
          <dd>
            <EventSubject event={event} />
          </dd>
        </dl>
      </section>
      <section class="card">
        <h2 id="event-deliveries">Deliveries</h2>
        <DataTable
          rows={props.deliveries}
          empty="It was sent nowhere: no endpoint took its type, and no webhook URL."
          labelledBy="event-deliveries"
          rowAttributes={(delivery) => ({ "data-delivery": delivery.id })}
          columns={[
            {
              label: "To",
              cell: (delivery) =>
                delivery.endpoint_id ? (
                  <a class="mono" href={`/dashboard/webhooks/${delivery.endpoint_id}`}>
                    {delivery.url}
                  </a>
                ) : (
                  <>
                    <code>{delivery.url}</code>{" "}
                    <span class="muted small">(its own webhook URL)</span>
                  </>
                ),
            },
            { label: "Status", cell: (delivery) => <Badge status={delivery.status} /> },
            { label: "Attempts", num: true, cell: (delivery) => delivery.attempts },
            { label: "Last response", cell: (delivery) => <LastResponse delivery={delivery} /> },
            { label: "Last attempt", cell: (delivery) => <Time at={delivery.last_attempt_at} /> },
          ]}
        />
      </section>
      <section class="card">
        <h2 id="payload-heading">Payload</h2>
        <p class="hint">The JSON body every delivery of this event sent.</p>
        <pre class="payload">
          <code>{JSON.stringify(event, null, 2)}</code>
        </pre>
      </section>
    </DashboardLayout>
  );
}
