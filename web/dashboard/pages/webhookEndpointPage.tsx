import type {
  EndpointDeliveryRow,
  WebhookEndpointRow,
} from "../../../app/webhookEndpoints/manageEndpoints.ts";
import { TEST_EVENTS_PER_HOUR } from "../../../domain/webhookEndpoints.ts";
import { Alert, Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { State } from "./endpointState.tsx";
import { EventChecks, eventsText } from "./eventFilters.tsx";
import { Field, type FormState, SaveButton } from "./formFields.tsx";
import { LastResponse } from "./lastResponse.tsx";
import { Pager, type PagerLinks } from "./pager.tsx";
import type { Session } from "./pageSession.ts";

const ENDPOINT_NOTICES: Record<string, string> = {
  saved: "The endpoint is saved.",
  test_sent: "A test event is queued to this endpoint: it appears in the delivery log below.",
  disabled: "The endpoint is disabled: no new event is sent to it.",
  enabled: "The endpoint is enabled.",
};

export function WebhookEndpointPage(props: {
  session: Session;
  endpoint: WebhookEndpointRow;
  deliveries: EndpointDeliveryRow[];
  pager: PagerLinks;
  state: Pick<FormState, "values" | "errors" | "problem">;
  notice?: string;
}) {
  const { endpoint, session } = props;
  const csrf = session.csrf;
  const base = `/dashboard/webhooks/${endpoint.id}`;
  const overlap =
    endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > new Date()
      ? endpoint.previous_secret_expires_at
      : null;
  const notice = props.notice && ENDPOINT_NOTICES[props.notice];
  return (
    <DashboardLayout title="Webhook endpoint" section="/dashboard/webhooks" {...session}>
      {notice && <Alert tone="ok">{notice}</Alert>}
      {props.state.problem && <Alert tone="bad">{props.state.problem}</Alert>}
      <section class="card">
        <h2 class="mono">{endpoint.url}</h2>
        <dl class="facts">
          <dt>State</dt>
          <dd>
            <State enabled={endpoint.enabled} />
          </dd>
          <dt>Events</dt>
          <dd>{eventsText(endpoint.events)}</dd>
          <dt>Added</dt>
          <dd>
            <Time at={endpoint.created_at} />
          </dd>
          <dt>Secret</dt>
          <dd>
            {overlap ? (
              <>
                Rotated; the one before it also signs until <Time at={overlap} />
              </>
            ) : (
              "shown once when made; rotate it to get a new one"
            )}
          </dd>
        </dl>
        <div class="actions">
          <form method="post" action={`${base}/test`} class="inline">
            <Csrf token={csrf} />
            <button type="submit">Send a test event</button>
          </form>
          <form method="post" action={`${base}/rotate-secret`} class="inline">
            <Csrf token={csrf} />
            <button type="submit">Rotate the secret</button>
          </form>
          <form
            method="post"
            action={`${base}/${endpoint.enabled ? "disable" : "enable"}`}
            class="inline"
          >
            <Csrf token={csrf} />
            <button type="submit">{endpoint.enabled ? "Disable" : "Enable"}</button>
          </form>
        </div>
        <p class="hint">
          A test event (<code>webhook.test</code>) goes to this endpoint only, enabled or not; at
          most {TEST_EVENTS_PER_HOUR} an hour.
        </p>
      </section>
      <section class="card">
        <h2 id="deliveries-heading">Delivery log</h2>
        <DataTable
          rows={props.deliveries}
          empty="Nothing sent to this endpoint yet."
          labelledBy="deliveries-heading"
          rowAttributes={(delivery) => ({ "data-delivery": delivery.id })}
          columns={[
            {
              label: "Event",
              href: (delivery) => `/dashboard/events/${delivery.event_id}`,
              cell: (delivery) => <code>{delivery.event_type}</code>,
            },
            { label: "Queued", cell: (delivery) => <Time at={delivery.created_at} /> },
            { label: "Status", cell: (delivery) => <Badge status={delivery.status} /> },
            { label: "Attempts", num: true, cell: (delivery) => delivery.attempts },
            { label: "Last response", cell: (delivery) => <LastResponse delivery={delivery} /> },
            { label: "Next attempt", cell: (delivery) => <Time at={delivery.next_attempt_at} /> },
          ]}
        />
        <Pager base={base} query={{}} links={props.pager} />
      </section>
      <section class="card">
        <h2>Change it</h2>
        <form method="post" action={base}>
          <Csrf token={csrf} />
          <Field
            name="url"
            label="URL"
            type="url"
            state={props.state}
            required
            hint="Deliveries still being retried go to the new URL."
          />
          <EventChecks state={props.state} legend="Send these events" />
          <SaveButton />
        </form>
      </section>
      <section class="card">
        <h2>Delete it</h2>
        <p class="small">
          Nothing more is sent to it; deliveries still being retried stop. Its deliveries stay in
          the event log.
        </p>
        <form method="post" action={`${base}/delete`}>
          <Csrf token={csrf} />
          <button type="submit" class="danger">
            Delete endpoint
          </button>
        </form>
      </section>
    </DashboardLayout>
  );
}
