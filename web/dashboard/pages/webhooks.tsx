import type { DeliveredEvent, EventDeliveryRow } from "../../../app/events/eventLog.ts";
import type {
  EndpointDeliveryRow,
  WebhookEndpointRow,
} from "../../../app/webhookEndpoints/manageEndpoints.ts";
import {
  EVENT_LOG_TYPES,
  MAX_WEBHOOK_ENDPOINTS,
  TEST_EVENTS_PER_HOUR,
  WEBHOOK_EVENT_FILTERS,
} from "../../../domain/webhookEndpoints.ts";
import { Alert, Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { Field, type FormState } from "./forms.tsx";
import { Pager, type PagerLinks, type Session } from "./lists.tsx";

/** A checkbox's form name for an event filter (each its own field: the form keeps one value a name). */
export const eventField = (filter: string) => `event:${filter}`;

const FILTER_HINTS: Record<string, string> = {
  "invoice.*": "every invoice event",
  "link.*": "every payment link event",
};

/** The filters as the form lists them: each kind's wildcard first, then its types. */
const FILTER_ORDER = ["invoice", "link"].flatMap((kind) => [
  `${kind}.*`,
  ...WEBHOOK_EVENT_FILTERS.filter((f) => f.startsWith(`${kind}.`) && !f.endsWith(".*")),
]);

/** What an endpoint is sent, in words. */
const eventsText = (events: string[] | null) => (events ? events.join(", ") : "every event type");

/** The event filters as checkboxes: none ticked sends every type (the API's `events` omitted). */
function EventChecks(props: { state: Pick<FormState, "values" | "errors">; legend: string }) {
  const error = props.state.errors.events;
  return (
    <fieldset class="checks" aria-describedby={error ? "events-error" : "events-hint"}>
      <legend>{props.legend}</legend>
      <p class="hint" id="events-hint">
        None ticked: every event type.
      </p>
      <div class="checkgrid">
        {FILTER_ORDER.map((filter) => (
          <label class="check">
            <input
              type="checkbox"
              name={eventField(filter)}
              value="on"
              checked={Boolean(props.state.values[eventField(filter)])}
            />{" "}
            <code>{filter}</code>
            {FILTER_HINTS[filter] && <span class="muted small"> ({FILTER_HINTS[filter]})</span>}
          </label>
        ))}
      </div>
      {error && (
        <p class="error" id="events-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const State = (props: { enabled: boolean }) => (
  <Badge status={props.enabled ? "enabled" : "disabled"} />
);

export function WebhooksPage(props: {
  session: Session;
  endpoints: WebhookEndpointRow[];
  state: Pick<FormState, "values" | "errors" | "problem">;
  notice?: string;
}) {
  return (
    <DashboardLayout title="Webhooks" section="/dashboard/webhooks" {...props.session}>
      {props.notice === "deleted" && <Alert tone="ok">The endpoint is deleted.</Alert>}
      {props.state.problem && <Alert tone="bad">{props.state.problem}</Alert>}
      <section class="card">
        <h2>Your endpoints</h2>
        <p class="muted small">
          Every event of your invoices and payment links is sent to each enabled endpoint that takes
          its type, signed with the endpoint's own secret (the{" "}
          <code class="name">webhook-signature</code> and{" "}
          <code class="name">X-Service-Signature</code> headers), and retried like any webhook.
        </p>
        {props.endpoints.length === 0 ? (
          <p class="muted">No endpoints yet.</p>
        ) : (
          <div class="tablewrap">
            <table class="responsive">
              <caption class="sr-only">Your endpoints, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Added</th>
                </tr>
              </thead>
              <tbody>
                {props.endpoints.map((endpoint) => (
                  <tr data-endpoint={endpoint.id}>
                    <td data-label="URL">
                      <a class="mono" href={`/dashboard/webhooks/${endpoint.id}`}>
                        {endpoint.url}
                      </a>
                    </td>
                    <td data-label="Events">{eventsText(endpoint.events)}</td>
                    <td data-label="State">
                      <State enabled={endpoint.enabled} />
                    </td>
                    <td data-label="Added">
                      <Time at={endpoint.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section class="card">
        <h2>Add an endpoint</h2>
        <form method="post" action="/dashboard/webhooks">
          <Csrf token={props.session.csrf} />
          <Field
            name="url"
            label="URL"
            type="url"
            state={props.state}
            required
            hint="https, on a public host. Its secret is shown once, right after."
          />
          <EventChecks state={props.state} legend="Send these events" />
          <button type="submit" class="primary">
            Add endpoint
          </button>
          <p class="hint">At most {MAX_WEBHOOK_ENDPOINTS} endpoints an account.</p>
        </form>
      </section>
    </DashboardLayout>
  );
}

/** An endpoint's secret, right after it was made: never shown again. */
export function WebhookSecretPage(props: {
  session: Session;
  endpoint: WebhookEndpointRow;
  secret: string;
  rotated: boolean;
}) {
  const { endpoint } = props;
  return (
    <DashboardLayout
      title={props.rotated ? "New signing secret" : "Endpoint added"}
      section="/dashboard/webhooks"
      {...props.session}
    >
      <section class="card" aria-labelledby="secret-heading">
        <h2 id="secret-heading">Signing secret</h2>
        <p>
          Of the endpoint <code>{endpoint.url}</code>. Copy it now into your receiver's
          configuration: it is shown this once, and Remit cannot show it again.
          {props.rotated && (
            <>
              {" "}
              Until <Time at={endpoint.previous_secret_expires_at} />, deliveries are signed with
              both this secret and the one before it, so your receiver can switch without refusing
              one.
            </>
          )}
        </p>
        <div class="copyrow">
          <code id="webhook-secret">{props.secret}</code>
          <button type="button" data-copy-target="webhook-secret">
            Copy
          </button>
        </div>
        <p class="hint">
          Verify each delivery with it (Standard Webhooks'{" "}
          <code class="name">webhook-signature</code>, or{" "}
          <code class="name">X-Service-Signature</code>): docs/api.md, "Webhooks".
        </p>
      </section>
      <p>
        <a href={`/dashboard/webhooks/${endpoint.id}`}>Go to the endpoint</a> ·{" "}
        <a href="/dashboard/webhooks">All endpoints</a>
      </p>
    </DashboardLayout>
  );
}

const ENDPOINT_NOTICES: Record<string, string> = {
  saved: "The endpoint is saved.",
  test_sent: "A test event is queued to this endpoint: it appears in the delivery log below.",
  disabled: "The endpoint is disabled: no new event is sent to it.",
  enabled: "The endpoint is enabled.",
};

/** The last response of a delivery, in words. */
function LastResponse(props: { delivery: EventDeliveryRow }) {
  const { delivery } = props;
  if (delivery.last_attempt_at === null) return <span class="muted">no attempt yet</span>;
  return (
    <span data-response-code={delivery.last_status_code ?? "none"}>
      {delivery.last_status_code === null ? "no response" : `HTTP ${delivery.last_status_code}`}
    </span>
  );
}

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
        {props.deliveries.length === 0 ? (
          <p class="muted">Nothing sent to this endpoint yet.</p>
        ) : (
          <div class="tablewrap">
            <table class="responsive" aria-labelledby="deliveries-heading">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Queued</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Attempts
                  </th>
                  <th scope="col">Last response</th>
                  <th scope="col">Next attempt</th>
                </tr>
              </thead>
              <tbody>
                {props.deliveries.map((delivery) => (
                  <tr data-delivery={delivery.id}>
                    <td data-label="Event">
                      <a href={`/dashboard/events/${delivery.event_id}`}>
                        <code>{delivery.event_type}</code>
                      </a>
                    </td>
                    <td data-label="Queued">
                      <Time at={delivery.created_at} />
                    </td>
                    <td data-label="Status">
                      <Badge status={delivery.status} />
                    </td>
                    <td data-label="Attempts" class="num">
                      {delivery.attempts}
                    </td>
                    <td data-label="Last response">
                      <LastResponse delivery={delivery} />
                    </td>
                    <td data-label="Next attempt">
                      <Time at={delivery.next_attempt_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
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
          <button type="submit" class="primary">
            Save
          </button>
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

/** What an event is about: its invoice, its payment link, or the endpoint it tested. */
function EventSubject(props: { event: DeliveredEvent }) {
  const { event } = props;
  if (typeof event.invoice_id === "string")
    return (
      <a href={`/dashboard/invoices/${event.invoice_id}`}>
        Invoice {String(event.invoice_number ?? "")}
      </a>
    );
  if (typeof event.slug === "string")
    return <a href={`/dashboard/links/${event.slug}`}>Payment link {event.slug}</a>;
  if (typeof event.endpoint_id === "string")
    return <a href={`/dashboard/webhooks/${event.endpoint_id}`}>Test of an endpoint</a>;
  return <span class="muted">—</span>;
}

/** An event's `created_at` as a time; null when a stored payload has none readable. */
const at = (iso: unknown) => {
  const date = new Date(typeof iso === "string" ? iso : Number.NaN);
  return Number.isNaN(date.getTime()) ? null : date;
};

export function EventsPage(props: {
  session: Session;
  events: DeliveredEvent[];
  type: string;
  pager: PagerLinks;
}) {
  return (
    <DashboardLayout title="Events" section="/dashboard/events" {...props.session}>
      <section class="card">
        <form method="get" action="/dashboard/events" class="filters">
          <div class="field">
            <label for="type">Type</label>
            <select id="type" name="type">
              <option value="">Any</option>
              {EVENT_LOG_TYPES.map((type) => (
                <option value={type} selected={type === props.type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div class="actions">
            <button type="submit">Filter</button>
          </div>
        </form>
      </section>
      <section class="card">
        {props.events.length === 0 ? (
          <p class="muted">No events match.</p>
        ) : (
          <div class="tablewrap">
            <table class="responsive">
              <caption>Your events, newest first, each as it was delivered</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Type</th>
                  <th scope="col">About</th>
                </tr>
              </thead>
              <tbody>
                {props.events.map((event) => (
                  <tr data-event={event.event_id}>
                    <td data-label="When">
                      <Time at={at(event.created_at)} />
                    </td>
                    <td data-label="Type">
                      <a href={`/dashboard/events/${event.event_id}`}>
                        <code>{event.type}</code>
                      </a>
                    </td>
                    <td data-label="About">
                      <EventSubject event={event} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          base="/dashboard/events"
          query={props.type ? { type: props.type } : {}}
          links={props.pager}
        />
      </section>
    </DashboardLayout>
  );
}

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
        {props.deliveries.length === 0 ? (
          <p class="muted">It was sent nowhere: no endpoint took its type, and no webhook URL.</p>
        ) : (
          <div class="tablewrap">
            <table class="responsive" aria-labelledby="event-deliveries">
              <thead>
                <tr>
                  <th scope="col">To</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Attempts
                  </th>
                  <th scope="col">Last response</th>
                  <th scope="col">Last attempt</th>
                </tr>
              </thead>
              <tbody>
                {props.deliveries.map((delivery) => (
                  <tr data-delivery={delivery.id}>
                    <td data-label="To">
                      {delivery.endpoint_id ? (
                        <a class="mono" href={`/dashboard/webhooks/${delivery.endpoint_id}`}>
                          {delivery.url}
                        </a>
                      ) : (
                        <>
                          <code>{delivery.url}</code>{" "}
                          <span class="muted small">(its own webhook URL)</span>
                        </>
                      )}
                    </td>
                    <td data-label="Status">
                      <Badge status={delivery.status} />
                    </td>
                    <td data-label="Attempts" class="num">
                      {delivery.attempts}
                    </td>
                    <td data-label="Last response">
                      <LastResponse delivery={delivery} />
                    </td>
                    <td data-label="Last attempt">
                      <Time at={delivery.last_attempt_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
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
