import type { Child } from "hono/jsx";
import { formatUsdcForDisplay } from "../../../domain/money.ts";
import { Alert, Csrf, DashboardLayout } from "../layout.tsx";
import type { Session } from "./lists.tsx";

/** A form's values as typed (strings), and the API's messages by field path. */
export type FormState = {
  values: Record<string, string>;
  lines: { description: string; quantity: string; unit_price: string }[];
  errors: Record<string, string>;
  /** A problem not tied to one field. */
  problem?: string;
  /** Replays a double submission instead of creating twice. */
  idempotencyKey: string;
  /** The total the server computed from the lines, when they are valid. */
  total: bigint | null;
};

/** A labelled input with the API's message for it, tied by aria-describedby. */
export function Field(props: {
  name: string;
  label: string;
  state: Pick<FormState, "values" | "errors">;
  type?: string;
  required?: boolean;
  hint?: string;
  multiline?: boolean;
  autocomplete?: string;
}) {
  const error = props.state.errors[props.name];
  const value = props.state.values[props.name] ?? "";
  const described = [error && `${props.name}-error`, props.hint && `${props.name}-hint`]
    .filter(Boolean)
    .join(" ");
  const common = {
    id: props.name,
    name: props.name,
    required: props.required,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": described || undefined,
    autocomplete: props.autocomplete,
  };
  return (
    <div class="field">
      <label for={props.name}>
        {props.label}
        {props.required ? "" : " (optional)"}
      </label>
      {props.multiline ? (
        <textarea {...common}>{value}</textarea>
      ) : (
        <input {...common} type={props.type ?? "text"} value={value} />
      )}
      {props.hint && (
        <p class="hint" id={`${props.name}-hint`}>
          {props.hint}
        </p>
      )}
      {error && (
        <p class="error" id={`${props.name}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

function LineRow(props: {
  index: number | "#";
  line: FormState["lines"][number];
  errors: Record<string, string>;
}) {
  const i = props.index;
  const cell = (key: "description" | "quantity" | "unit_price", label: string, role: string) => {
    const name = `line_items[${i}].${key}`;
    const error = props.errors[name];
    return (
      <>
        <label class="sr-only" for={name} data-name={`line_items[#].${key}`}>
          {label}
        </label>
        <input
          id={name}
          name={name}
          data-name={`line_items[#].${key}`}
          data-role={role}
          type="text"
          inputmode={key === "description" ? undefined : "decimal"}
          value={props.line[key]}
          aria-invalid={error ? "true" : undefined}
        />
        {error && <p class="error">{error}</p>}
      </>
    );
  };
  return (
    <tr>
      <td class="desc">{cell("description", "Description", "description")}</td>
      <td class="qty">{cell("quantity", "Quantity", "quantity")}</td>
      <td class="price">{cell("unit_price", "Unit price (USDC)", "price")}</td>
      <td class="num">
        <output data-role="line-total" />
      </td>
      <td>
        <button
          type="submit"
          name="_action"
          value={`remove_line:${i}`}
          data-role="remove"
          formnovalidate
          aria-label={typeof i === "number" ? `Remove line ${i + 1}` : "Remove line"}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}

const EMPTY_LINE = { description: "", quantity: "", unit_price: "" };

/** Why the last submission created nothing: a problem, or the fields to fix. */
function NotCreated(props: { state: FormState; what: string; verb?: string }) {
  const { state } = props;
  return (
    <>
      {state.problem && <Alert tone="bad">{state.problem}</Alert>}
      {Object.keys(state.errors).length > 0 && (
        <Alert tone="bad">
          The {props.what} was not {props.verb ?? "created"}: fix the fields marked below.
        </Alert>
      )}
    </>
  );
}

/** The form's opening: its CSRF token, idempotency key and the button Enter presses. */
function FormHead(props: { session: Session; state: FormState; create: string }) {
  return (
    <>
      <Csrf token={props.session.csrf} />
      <input type="hidden" name="_idempotency_key" value={props.state.idempotencyKey} />
      {/* Enter in a field submits with the form's first button: this one, not a Remove. */}
      <button type="submit" name="_action" value="create" class="sr-only" tabindex={-1}>
        {props.create}
      </button>
    </>
  );
}

function CustomerCard(props: { state: FormState }) {
  const { state } = props;
  return (
    <section class="card">
      <h2>Customer</h2>
      <div class="grid2">
        <Field name="vendor_name" label="Name" state={state} required />
        <Field name="vendor_email" label="Email" type="email" state={state} required />
      </div>
      <Field name="vendor_address" label="Address" state={state} multiline />
    </section>
  );
}

/** The line items with their totals (the dashboard's script adds and removes lines in place). */
function LinesCard(props: { state: FormState }) {
  const { state } = props;
  const lineError = state.errors.line_items;
  return (
    <section class="card">
      <h2 id="lines-heading">Line items</h2>
      <div class="tablewrap">
        <table class="lines" aria-labelledby="lines-heading">
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col">Quantity</th>
              <th scope="col">Unit price (USDC)</th>
              <th scope="col" class="num">
                Line total
              </th>
              <th scope="col">
                <span class="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody class="lines-body">
            {state.lines.map((line, index) => (
              <LineRow index={index} line={line} errors={state.errors} />
            ))}
          </tbody>
        </table>
      </div>
      <template id="line-template">
        <LineRow index="#" line={EMPTY_LINE} errors={{}} />
      </template>
      {lineError && <p class="error">{lineError}</p>}
      <div class="actions">
        <button type="submit" name="_action" value="add_line" data-role="add" formnovalidate>
          Add a line
        </button>
        <button type="submit" name="_action" value="recompute" formnovalidate>
          Update total
        </button>
      </div>
      <p class="totals" aria-live="polite">
        Total:{" "}
        <output id="invoice-total">
          {state.total === null ? "—" : `${formatUsdcForDisplay(state.total)} USDC`}
        </output>
      </p>
    </section>
  );
}

/** Where the money goes: a managed wallet or one of the merchant's payout wallets. */
export function WalletTypeField(props: { state: Pick<FormState, "values"> }) {
  const byo = props.state.values.wallet_type === "byo";
  return (
    <div class="field">
      <label for="wallet_type">Paid into</label>
      <select id="wallet_type" name="wallet_type">
        <option value="managed" selected={!byo}>
          A wallet Remit manages for you
        </option>
        <option value="byo" selected={byo}>
          One of your payout wallets
        </option>
      </select>
    </div>
  );
}

/** The merchant's side: name, address, where the money goes, webhook, emailing the vendor. */
function YouCard(props: { state: FormState; sendLabel: string }) {
  const { state } = props;
  return (
    <section class="card">
      <h2>You</h2>
      <div class="grid2">
        <Field name="merchant_name" label="Your name on the invoice" state={state} required />
        <Field name="merchant_address" label="Your address" state={state} required multiline />
      </div>
      <WalletTypeField state={state} />
      <Field
        name="wallet_address"
        label="Payout wallet (for your own wallet)"
        state={state}
        hint="One of the wallets on your settings page, EIP-55 checksummed."
      />
      <Field name="webhook_url" label="Webhook URL" type="url" state={state} />
      <div class="field">
        <label>
          <input
            type="checkbox"
            name="send_now"
            value="true"
            checked={state.values.send_now !== "false"}
          />{" "}
          {props.sendLabel}
        </label>
      </div>
    </section>
  );
}

export function NewInvoicePage(props: { session: Session; state: FormState }) {
  const { state } = props;
  return (
    <DashboardLayout title="New invoice" section="/dashboard/invoices/new" {...props.session}>
      <NotCreated state={state} what="invoice" />
      <form method="post" action="/dashboard/invoices/new" id="invoice-form" novalidate>
        <FormHead session={props.session} state={state} create="Create invoice" />
        <CustomerCard state={state} />
        <LinesCard state={state} />
        <section class="card">
          <h2>Terms</h2>
          <div class="grid2">
            <Field
              name="issue_date"
              label="Issue date"
              type="date"
              state={state}
              hint="Today when empty."
            />
            <Field name="due_date" label="Due date" type="date" state={state} required />
          </div>
          <Field name="notes" label="Notes" state={state} multiline />
        </section>
        <YouCard state={state} sendLabel="Email the invoice to the customer now" />
        <button type="submit" class="primary" name="_action" value="create">
          Create invoice
        </button>
      </form>
    </DashboardLayout>
  );
}

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
        <CustomerCard state={state} />
        <LinesCard state={state} />
        <YouCard state={state} sendLabel="Email each invoice to the customer when it is issued" />
        <button type="submit" class="primary" name="_action" value="create">
          {submit}
        </button>
      </form>
    </DashboardLayout>
  );
}

/** Shown once, right after creation: the key itself (stored only as a hash). */
export function KeysPage(props: {
  session: Session;
  keys: {
    id: string;
    name: string;
    scope: string;
    last_four: string;
    created_at: Date;
    last_used_at: Date | null;
    revoked_at: Date | null;
  }[];
  created?: { key: string; name: string };
  notice?: string;
  state: Pick<FormState, "values" | "errors">;
}) {
  return (
    <DashboardLayout title="API keys" section="/dashboard/keys" {...props.session}>
      {props.notice === "revoked" && <Alert tone="ok">The key is revoked.</Alert>}
      {props.created && (
        <section class="card" aria-labelledby="new-key">
          <h2 id="new-key">Your new key "{props.created.name}"</h2>
          <p>Copy it now: it is shown this once and stored only as a hash.</p>
          <div class="copyrow">
            <code id="api-key">{props.created.key}</code>
            <button type="button" data-copy-target="api-key">
              Copy
            </button>
          </div>
        </section>
      )}
      <section class="card">
        <h2>Create a key</h2>
        <form method="post" action="/dashboard/keys">
          <Csrf token={props.session.csrf} />
          <div class="grid2">
            <Field name="name" label="What it is for" state={props.state} required />
            <div class="field">
              <label for="scope">Scope</label>
              <select id="scope" name="scope">
                <option value="write">write: everything</option>
                <option value="read" selected={props.state.values.scope === "read"}>
                  read: list and read only
                </option>
              </select>
            </div>
          </div>
          <button type="submit" class="primary">
            Create key
          </button>
        </form>
      </section>
      <section class="card">
        <div class="tablewrap">
          <table class="responsive">
            <caption>Your keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Ends in</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((key) => (
                <tr data-key={key.id}>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Scope">{key.scope}</td>
                  <td data-label="Ends in">
                    <code>…{key.last_four}</code>
                  </td>
                  <td data-label="Last used">
                    {key.last_used_at
                      ? key.last_used_at.toISOString().slice(0, 16).replace("T", " ")
                      : "never"}
                  </td>
                  <td data-label="State">
                    {key.revoked_at ? (
                      "revoked"
                    ) : (
                      <form
                        method="post"
                        action={`/dashboard/keys/${key.id}/revoke`}
                        class="inline"
                      >
                        <Csrf token={props.session.csrf} />
                        <button
                          type="submit"
                          class="danger"
                          aria-label={`Revoke key ${key.name} ending in ${key.last_four}`}
                        >
                          Revoke
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </DashboardLayout>
  );
}

export function SettingsPage(props: {
  session: Session;
  state: Pick<FormState, "values" | "errors">;
  wallets: { address: string; created_at: Date }[];
  managedWallet: string | null;
  walletState: Pick<FormState, "values" | "errors">;
  notice?: string;
  extra?: Child;
  /** The notification email in use (null: the account email), and one waiting for its link. */
  notificationEmail?: { current: string | null; pending: string | null };
}) {
  const pending = props.notificationEmail?.pending;
  const inUse = props.notificationEmail?.current ?? props.session.email;
  const notices: Record<string, string> = {
    saved: "Settings saved.",
    saved_pending:
      "Settings saved. We emailed a link to the new notification address: payment notices go there once it is followed.",
    wallet_added: "The wallet is added; we emailed you about it.",
    wallet_removed: "The wallet is removed.",
  };
  return (
    <DashboardLayout title="Settings" section="/dashboard/settings" {...props.session}>
      {props.notice && notices[props.notice] && <Alert tone="ok">{notices[props.notice]}</Alert>}
      <section class="card">
        <h2>Invoice defaults and notifications</h2>
        <form method="post" action="/dashboard/settings">
          <Csrf token={props.session.csrf} />
          <Field name="default_name" label="Your name on new invoices" state={props.state} />
          <Field
            name="default_address"
            label="Your address on new invoices"
            state={props.state}
            multiline
          />
          <Field
            name="notification_email"
            label="Send payment notices to"
            type="email"
            state={props.state}
            hint={
              pending
                ? `Waiting for the link we emailed to ${pending}; until it is followed, notices go to ${inUse}. Empty: ${props.session.email}.`
                : `Empty: ${props.session.email}. A new address gets a link to follow before notices go there.`
            }
          />
          <Field
            name="underpayment_tolerance"
            label="Underpayment tolerance (USDC)"
            state={props.state}
            hint="A shortfall of at most this still counts as paid (exchange withdrawal fees); 0.00: only the exact total. At most 10.00; new invoices keep the value they were created with."
          />
          {props.extra}
          <button type="submit" class="primary">
            Save
          </button>
        </form>
      </section>
      <section class="card">
        <h2>Payout wallets</h2>
        <p class="muted small">
          Where invoices and links paid into your own wallet may send money. Adding one emails you.
          {props.managedWallet && (
            <>
              {" "}
              Your managed wallet: <code>{props.managedWallet}</code>.
            </>
          )}
        </p>
        {props.wallets.length > 0 && (
          <ul>
            {props.wallets.map((wallet) => (
              <li>
                <code>{wallet.address}</code>{" "}
                <form method="post" action="/dashboard/settings/wallets/remove" class="inline">
                  <Csrf token={props.session.csrf} />
                  <input type="hidden" name="address" value={wallet.address} />
                  <button
                    type="submit"
                    class="danger"
                    aria-label={`Remove wallet ${wallet.address}`}
                  >
                    Remove
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <form method="post" action="/dashboard/settings/wallets">
          <Csrf token={props.session.csrf} />
          <Field
            name="address"
            label="Add a wallet (EIP-55 address on Base)"
            state={props.walletState}
            required
          />
          <button type="submit">Add wallet</button>
        </form>
      </section>
      <section class="card">
        <h2>Payment reminders</h2>
        <p>
          When your customers are reminded of what they owe:{" "}
          <a href="/dashboard/reminders">reminder policy</a>.
        </p>
      </section>
    </DashboardLayout>
  );
}
