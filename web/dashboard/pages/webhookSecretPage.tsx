import type { WebhookEndpointRow } from "../../../app/webhookEndpoints/manageEndpoints.ts";
import { DashboardLayout, Time } from "../layout.tsx";
import type { Session } from "./pageSession.ts";

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
