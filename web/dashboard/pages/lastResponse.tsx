import type { EventDeliveryRow } from "../../../app/events/eventLog.ts";

/** The last response of a delivery, in words. */
export function LastResponse(props: { delivery: EventDeliveryRow }) {
  const { delivery } = props;
  if (delivery.last_attempt_at === null) return <span class="muted">no attempt yet</span>;
  return (
    <span data-response-code={delivery.last_status_code ?? "none"}>
      {delivery.last_status_code === null ? "no response" : `HTTP ${delivery.last_status_code}`}
    </span>
  );
}
