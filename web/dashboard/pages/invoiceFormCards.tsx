// The invoice form's cards: the new invoice and schedule forms share them.
import { formatUsdcForDisplay } from "../../../domain/money.ts";
import { Alert, Csrf } from "../layout.tsx";
import { Field, type FormState, WalletTypeField } from "./formFields.tsx";
import type { Session } from "./pageSession.ts";

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

export function CustomerCard(props: { state: FormState }) {
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
export function LinesCard(props: { state: FormState }) {
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
