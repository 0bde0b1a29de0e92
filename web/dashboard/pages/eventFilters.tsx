import { WEBHOOK_EVENT_FILTERS } from "../../../domain/webhookEndpoints.ts";
import type { FormState } from "./formFields.tsx";

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
export const eventsText = (events: string[] | null) =>
  events ? events.join(", ") : "every event type";

/** The event filters as checkboxes: none ticked sends every type (the API's `events` omitted). */
export function EventChecks(props: {
  state: Pick<FormState, "values" | "errors">;
  legend: string;
}) {
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
