import type { Child } from "hono/jsx";
import { CURRENCIES } from "../../../domain/currencies.ts";
/** A form's values as typed (strings), and the API's messages by field path. */
export type FormState = {
  values: Record<string, string>;
  lines: FormLine[];
  errors: Record<string, string>;
  /** A problem not tied to one field. */
  problem?: string;
  /** Replays a double submission instead of creating twice. */
  idempotencyKey: string;
  /** The total the server computed from the lines, when they are valid. */
  total: bigint | null;
  /** With tax on the lines: their net sum and the tax (the total is their sum); else null. */
  tax?: { subtotal: bigint; tax: bigint } | null;
};

/** A line of the invoice form as typed; its tax rate and category are empty without tax. */
export type FormLine = {
  description: string;
  quantity: string;
  unit_price: string;
  tax_rate: string;
  tax_category: string;
};

/** A labelled input with the API's message for it, tied by aria-describedby. */
export function Field(props: {
  name: string;
  label: Child;
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

/** A form's one primary action: "Save" unless named. */
export function SaveButton(props: { label?: string }) {
  return (
    <button type="submit" class="primary">
      {props.label ?? "Save"}
    </button>
  );
}

/** "Unit price (EUR)": the unit in a span the dashboard's script rewrites when it changes. */
export function UnitLabel(props: { text: string; unit: string }) {
  return (
    <>
      {props.text} (<span data-role="unit">{props.unit}</span>)
    </>
  );
}

/**
 * What a new invoice's or payment link's amounts are in: USDC, or a currency paid in USDC at the
 * chain's rate. `amounts` names what then settles to the cent ("unit prices then have").
 */
export function CurrencyField(props: {
  state: Pick<FormState, "values" | "errors">;
  amounts: string;
}) {
  const chosen = props.state.values.currency || "USDC";
  const error = props.state.errors.currency;
  return (
    <div class="field">
      <label for="currency">Priced in</label>
      <select
        id="currency"
        name="currency"
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? "currency-hint currency-error" : "currency-hint"}
      >
        {CURRENCIES.map((code) => (
          <option value={code} selected={chosen === code}>
            {code}
          </option>
        ))}
      </select>
      <p class="hint" id="currency-hint">
        In USD, EUR or GBP the customer pays in USDC at the rate of Chainlink's feed on Base when
        paying; {props.amounts} at most 2 decimals.
      </p>
      {error && (
        <p class="error" id="currency-error">
          {error}
        </p>
      )}
    </div>
  );
}
