import type { DeliveredEvent } from "../../../app/events/eventLog.ts";

/** What an event is about: its invoice, its payment link, or the endpoint it tested. */
export function EventSubject(props: { event: DeliveredEvent }) {
  const { event } = props;
  if ("invoice_id" in event && typeof event.invoice_id === "string")
    return (
      <a href={`/dashboard/invoices/${event.invoice_id}`}>
        Invoice {String(event.invoice_number ?? "")}
      </a>
    );
  if ("slug" in event && typeof event.slug === "string")
    return <a href={`/dashboard/links/${event.slug}`}>Payment link {event.slug}</a>;
  if ("endpoint_id" in event && typeof event.endpoint_id === "string")
    return <a href={`/dashboard/webhooks/${event.endpoint_id}`}>Test of an endpoint</a>;
  return <span class="muted">—</span>;
}

/** An event's `created_at` as a time; null when a stored payload has none readable. */
export const at = (iso: unknown) => {
  const date = new Date(typeof iso === "string" ? iso : Number.NaN);
  return Number.isNaN(date.getTime()) ? null : date;
};
