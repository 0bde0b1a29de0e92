// The invoice form's cards: the new invoice and schedule forms share them.
import type { Child } from "hono/jsx";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { TAX_CATEGORIES, TAX_CATEGORY_NAMES } from "../../../domain/tax.ts";
import { EMPTY_LINE } from "../forms.ts";
import { Alert, Csrf } from "../layout.tsx";
import {
  CurrencyField,
  Field,
  type FormLine,
  type FormState,
  UnitLabel,
  WalletTypeField,
} from "./formFields.tsx";
import type { Session } from "./pageSession.ts";

function LineRow(props: {
  index: number | "#";
  line: FormLine;
  errors: Record<string, string>;
  tax: boolean;
  unit: string;
}) {
  const i = props.index;
  const nameOf = (key: keyof FormLine) => `line_items[${i}].${key}`;
  const label = (key: keyof FormLine, text: Child) => (
    <label class="sr-only" for={nameOf(key)} data-name={`line_items[#].${key}`}>
      {text}
    </label>
  );
  const error = (key: keyof FormLine) => {
    const message = props.errors[nameOf(key)];
    return message && <p class="error">{message}</p>;
  };
  const cell = (
    key: "description" | "quantity" | "unit_price" | "tax_rate",
    text: Child,
    role: string,
  ) => (
    <>
      {label(key, text)}
      <input
        id={nameOf(key)}
        name={nameOf(key)}
        data-name={`line_items[#].${key}`}
        data-role={role}
        type="text"
        inputmode={key === "description" ? undefined : "decimal"}
        value={props.line[key]}
        aria-invalid={props.errors[nameOf(key)] ? "true" : undefined}
      />
      {error(key)}
    </>
  );
  const category = props.line.tax_category;
  return (
    <tr>
      <td class="desc">{cell("description", "Description", "description")}</td>
      <td class="qty">{cell("quantity", "Quantity", "quantity")}</td>
      <td class="price">
        {cell("unit_price", <UnitLabel text="Unit price" unit={props.unit} />, "price")}
      </td>
      {props.tax && (
        <>
          <td class="rate">{cell("tax_rate", "Tax rate (%)", "tax-rate")}</td>
          <td class="cat">
            {label("tax_category", "Tax category")}
            <select
              id={nameOf("tax_category")}
              name={nameOf("tax_category")}
              data-name="line_items[#].tax_category"
              data-role="tax-category"
              aria-invalid={props.errors[nameOf("tax_category")] ? "true" : undefined}
            >
              <option value="" selected={!category}>
                —
              </option>
              {TAX_CATEGORIES.map((code) => (
                <option value={code} selected={category === code}>
                  {code} · {TAX_CATEGORY_NAMES[code]}
                </option>
              ))}
            </select>
            {error("tax_category")}
          </td>
        </>
      )}
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

/** Why the last submission created nothing: a problem, or the fields to fix. */
export function NotCreated(props: { state: FormState; what: string; verb?: string }) {
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
export function FormHead(props: { session: Session; state: FormState; create: string }) {
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

/**
 * What the invoice bills, between its head and the merchant's side: the customer, the lines and
 * their tax (a new invoice's form, and the invoice a schedule issues).
 */
export function BilledCards(props: { state: FormState; currency?: boolean }) {
  return (
    <>
      <CustomerCard state={props.state} />
      <LinesCard state={props.state} currency={props.currency ?? false} />
      <TaxCard state={props.state} />
    </>
  );
}

/** Whom the invoice is for: the vendor's name, email and address. */
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

/**
 * The line items with their totals (the dashboard's script adds and removes lines in place), and
 * with `currency` what they are priced in (a new invoice's, or the invoices a schedule issues).
 */
function LinesCard(props: { state: FormState; currency: boolean }) {
  return (
    <section class="card">
      <h2 id="lines-heading">Line items</h2>
      {props.currency && <CurrencyField state={props.state} amounts="unit prices then have" />}
      <LinesEditor
        state={props.state}
        unit={props.currency ? props.state.values.currency || "USDC" : "USDC"}
        labelledBy="lines-heading"
        hint="Tax is optional. A rate alone is standard-rated (S); a line at 0 % needs its category (zero-rated, exempt, reverse charge, …). Once one line has tax, every line needs it."
      />
    </section>
  );
}

/**
 * The editable lines (named `line_items[i].…`), the add and update buttons and the totals: the
 * invoice form's, and a credit note's. In a form with id `invoice-form` or `credit-note-form`
 * the dashboard's script prices them live. `tax: false` leaves out each line's rate and
 * category and the subtotal and tax rows (a credit note of an invoice without tax has none).
 */
export function LinesEditor(props: {
  state: FormState;
  labelledBy: string;
  hint: string;
  tax?: boolean;
  /** What the prices and totals are in (USDC unless the invoice is priced in a currency). */
  unit?: string;
}) {
  const { state } = props;
  const lineError = state.errors.line_items;
  const tax = props.tax ?? true;
  const unit = props.unit ?? "USDC";
  const amount = (units: bigint) => formatAmountForDisplay(units, unit);
  return (
    <>
      <div class="tablewrap">
        <table class="lines" aria-labelledby={props.labelledBy}>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col">Quantity</th>
              <th scope="col">
                <UnitLabel text="Unit price" unit={unit} />
              </th>
              {tax && (
                <>
                  <th scope="col">Tax rate (%)</th>
                  <th scope="col">Tax category</th>
                </>
              )}
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
              <LineRow index={index} line={line} errors={state.errors} tax={tax} unit={unit} />
            ))}
          </tbody>
        </table>
      </div>
      <template id="line-template">
        <LineRow index="#" line={EMPTY_LINE} errors={{}} tax={tax} unit={unit} />
      </template>
      {lineError && <p class="error">{lineError}</p>}
      <p class="hint">{props.hint}</p>
      <div class="actions">
        <button type="submit" name="_action" value="add_line" data-role="add" formnovalidate>
          Add a line
        </button>
        <button type="submit" name="_action" value="recompute" formnovalidate>
          Update total
        </button>
      </div>
      <div class="totals" aria-live="polite">
        {tax && (
          <>
            <p class="sub" data-role="taxed" hidden={!state.tax}>
              Subtotal:{" "}
              <output id="invoice-subtotal">{state.tax ? amount(state.tax.subtotal) : "—"}</output>
            </p>
            <p class="sub" data-role="taxed" hidden={!state.tax}>
              Tax: <output id="invoice-tax">{state.tax ? amount(state.tax.tax) : "—"}</output>
            </p>
          </>
        )}
        <p>
          Total:{" "}
          <output id="invoice-total">{state.total === null ? "—" : amount(state.total)}</output>
        </p>
      </div>
    </>
  );
}

/**
 * The parties' tax fields and the exemption reason: what an invoice with tax on its lines
 * states (the lines' rate and category are in the lines card), checked by the API's schema.
 */
function TaxCard(props: { state: FormState }) {
  const { state } = props;
  return (
    <section class="card" aria-labelledby="tax-heading">
      <h2 id="tax-heading">Tax</h2>
      <p class="muted small">
        For an invoice with tax on its lines (a rate or a category above). E-invoices also need both
        countries.
      </p>
      <div class="grid2">
        <Field
          name="merchant_tax_id"
          label="Your tax ID"
          state={state}
          hint="With its country prefix, e.g. DE123456789."
        />
        <Field
          name="merchant_country"
          label="Your country"
          state={state}
          hint="Two-letter code, e.g. DE."
        />
        <Field
          name="vendor_tax_id"
          label="Customer's tax ID"
          state={state}
          hint="Required with reverse-charge (AE) or intra-community (K) lines."
        />
        <Field
          name="vendor_country"
          label="Customer's country"
          state={state}
          hint="Two-letter code, e.g. FR."
        />
      </div>
      <Field
        name="tax_exemption_reason"
        label="Why no tax is charged"
        state={state}
        multiline
        hint="Printed with exempt (E), reverse-charge, intra-community, export or out-of-scope lines; required with exempt lines."
      />
    </section>
  );
}

/** The merchant's side: name, address, where the money goes, webhook, emailing the vendor. */
export function YouCard(props: { state: FormState; sendLabel: string }) {
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
