import { DashboardLayout } from "../layout.tsx";
import { Field, type FormState } from "./formFields.tsx";
import { BilledCards, FormHead, NotCreated, YouCard } from "./invoiceFormCards.tsx";
import type { Session } from "./pageSession.ts";

/** A schedule being changed: its calendar, which a change cannot move, shown as text. */
export type ScheduleEditing = { id: string; every: string; startDate: string };

/**
 * A new schedule, or a change of one: the invoice it issues (the invoice form's cards, without
 * its dates) and its calendar, checked by POST (or PATCH) /api/invoice-schedules' own schema.
 */
export function ScheduleFormPage(props: {
  session: Session;
  state: FormState;
  editing?: ScheduleEditing;
}) {
  const { state, editing } = props;
  const interval = state.values.interval ?? "monthly";
  const title = editing ? "Change schedule" : "New schedule";
  const submit = editing ? "Save changes" : "Create schedule";
  return (
    <DashboardLayout title={title} section="/dashboard/schedules" {...props.session}>
      <NotCreated state={state} what="schedule" verb={editing ? "changed" : "created"} />
      <form
        method="post"
        action={editing ? `/dashboard/schedules/${editing.id}/edit` : "/dashboard/schedules/new"}
        id="invoice-form"
        novalidate
      >
        <FormHead session={props.session} state={state} create={submit} />
        <section class="card">
          <h2>Calendar</h2>
          {editing ? (
            <p>
              {editing.every}, from {editing.startDate} (UTC). How often and the first date stay as
              they are; a change applies to the invoices not yet issued.
            </p>
          ) : (
            <div class="grid2">
              <div class="field">
                <label for="interval">How often</label>
                <select id="interval" name="interval">
                  <option value="monthly" selected={interval === "monthly"}>
                    Every month
                  </option>
                  <option value="weekly" selected={interval === "weekly"}>
                    Every week
                  </option>
                  <option value="every_n_days" selected={interval === "every_n_days"}>
                    Every N days
                  </option>
                </select>
              </div>
              <Field
                name="n"
                label="N (days, for every N days)"
                state={state}
                hint="Only with “Every N days”."
              />
              <Field
                name="start_date"
                label="First invoice on"
                type="date"
                state={state}
                required
                hint="UTC. Monthly keeps this day of the month (the last day when a month is shorter)."
              />
            </div>
          )}
          <div class="grid2">
            <Field name="days_until_due" label="Due after (days)" state={state} required />
            <Field name="end_date" label="Last invoice on or before" type="date" state={state} />
            <Field name="count" label="At most this many invoices" state={state} />
          </div>
          <Field name="notes" label="Notes on each invoice" state={state} multiline />
        </section>
        <BilledCards state={state} currency />
        <YouCard state={state} sendLabel="Email each invoice to the customer when it is issued" />
        <button type="submit" class="primary" name="_action" value="create">
          {submit}
        </button>
      </form>
    </DashboardLayout>
  );
}
