import type { WebhookEndpointRow } from "../../../app/webhookEndpoints/manageEndpoints.ts";
import { MAX_WEBHOOK_ENDPOINTS } from "../../../domain/webhookEndpoints.ts";
import { Alert, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { State } from "./endpointState.tsx";
import { EventChecks, eventsText } from "./eventFilters.tsx";
import { Field, type FormState } from "./formFields.tsx";
import type { Session } from "./pageSession.ts";

export function WebhooksPage(props: {
  session: Session;
  endpoints: WebhookEndpointRow[];
  state: Pick<FormState, "values" | "errors" | "problem">;
  notice?: string;
  /** The URL rule as this deployment applies it (domain/webhookUrlPolicy.ts webhookUrlRule). */
  urlRule: string;
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
        <DataTable
          rows={props.endpoints}
          empty="No endpoints yet."
          caption="Your endpoints, oldest first"
          captionClass="sr-only"
          rowAttributes={(endpoint) => ({ "data-endpoint": endpoint.id })}
          columns={[
            {
              label: "URL",
              href: (endpoint) => `/dashboard/webhooks/${endpoint.id}`,
              cell: (endpoint) => endpoint.url,
              linkClass: "mono",
            },
            { label: "Events", cell: (endpoint) => eventsText(endpoint.events) },
            { label: "State", cell: (endpoint) => <State enabled={endpoint.enabled} /> },
            { label: "Added", cell: (endpoint) => <Time at={endpoint.created_at} /> },
          ]}
        />
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
            hint={`${props.urlRule} Its secret is shown once, right after.`}
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
