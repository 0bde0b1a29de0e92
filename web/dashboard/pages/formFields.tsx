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
