import type { FormState } from "./pages/forms.tsx";

/** A submitted form's text fields (files, which no dashboard form has, are dropped). */
export type FormFields = Record<string, string>;

export const textFields = (body: Record<string, unknown>): FormFields =>
  Object.fromEntries(
    Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );

const IDEMPOTENCY_KEY = /^dash-[0-9a-f-]{36}$/;

/** The form's idempotency key (a double submission replays), or a new one. */
export const idempotencyKeyOf = (form: FormFields): string =>
  IDEMPOTENCY_KEY.test(form._idempotency_key ?? "")
    ? (form._idempotency_key as string)
    : `dash-${crypto.randomUUID()}`;

/**
 * The JSON body the API would receive from this form: empty fields are left out (the API then
 * says "is required" for the ones it needs), numbers where the API takes numbers.
 */
export function formToBody(form: FormFields, textKeys: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of textKeys) {
    const value = form[key]?.trim();
    if (value) body[key] = value;
  }
  return body;
}

type Line = FormState["lines"][number];

/** The line rows as typed, in order; rows left entirely empty are dropped. */
export function linesOf(form: FormFields): Line[] {
  const rows = new Map<number, Line>();
  for (const [name, value] of Object.entries(form)) {
    const match = /^line_items\[(\d{1,2})\]\.(description|quantity|unit_price)$/.exec(name);
    if (!match) continue;
    const index = Number(match[1]);
    const row = rows.get(index) ?? { description: "", quantity: "", unit_price: "" };
    row[match[2] as keyof Line] = value;
    rows.set(index, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row)
    .filter((row) => row.description.trim() || row.quantity.trim() || row.unit_price.trim());
}

/** A line as the API takes it: the quantity a JSON number when it reads as one. */
export function lineToBody(line: Line): Record<string, unknown> {
  const quantity = line.quantity.trim();
  const body: Record<string, unknown> = {};
  if (line.description.trim()) body.description = line.description.trim();
  if (quantity) body.quantity = /^\d+(\.\d+)?$/.test(quantity) ? Number(quantity) : quantity;
  if (line.unit_price.trim()) body.unit_price = line.unit_price.trim();
  return body;
}
