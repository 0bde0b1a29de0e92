import { formatUsdc, parseTypedUsdc } from "../../domain/money.ts";
import type { FormState } from "./pages/formFields.tsx";

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

/** A line with nothing typed. */
export const EMPTY_LINE: Line = {
  description: "",
  quantity: "",
  unit_price: "",
  tax_rate: "",
  tax_category: "",
};

/** The line rows as typed, in order; rows left entirely empty are dropped. */
export function linesOf(form: FormFields): Line[] {
  const rows = new Map<number, Line>();
  for (const [name, value] of Object.entries(form)) {
    const match =
      /^line_items\[(\d{1,2})\]\.(description|quantity|unit_price|tax_rate|tax_category)$/.exec(
        name,
      );
    if (!match) continue;
    const index = Number(match[1]);
    const row = rows.get(index) ?? { ...EMPTY_LINE };
    row[match[2] as keyof Line] = value;
    rows.set(index, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row)
    .filter((row) => Object.values(row).some((value) => value.trim()));
}

/**
 * An amount a person typed, as the API takes it: read by the one lenient reading of typed money
 * (parseTypedUsdc: "100", "19.5", " 0.125 ") and written as the API's canonical decimal string
 * ("100.00"); or, when it cannot be read, its message for the person. The JSON API keeps its
 * strict quoted-decimal rule; the dashboard converts before calling the API's own functions.
 */
export function typedAmount(
  typed: string,
): { ok: true; value: string } | { ok: false; message: string } {
  const parsed = parseTypedUsdc(typed);
  return parsed.ok ? { ok: true, value: formatUsdc(parsed.units) } : parsed;
}

/**
 * The typed amounts of `fields` (by field path) that cannot be read, with their messages: what
 * the form shows in place of the API's strict message. Empty fields are the API's to judge.
 */
export function typedAmountErrors(fields: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, typed] of Object.entries(fields)) {
    if (!typed.trim()) continue;
    const amount = typedAmount(typed);
    if (!amount.ok) errors[path] = amount.message;
  }
  return errors;
}

/** The unit prices of the lines, by field path, as typed. */
export const typedLinePrices = (lines: Line[]): Record<string, string> =>
  Object.fromEntries(lines.map((line, i) => [`line_items[${i}].unit_price`, line.unit_price]));

/**
 * A line as the API takes it: the quantity a JSON number when it reads as one, the unit price
 * converted from what was typed (typedAmount; left as typed when unreadable, for the API to
 * refuse), the tax rate without a typed "%", the tax category as chosen.
 */
export function lineToBody(line: Line): Record<string, unknown> {
  const quantity = line.quantity.trim();
  const body: Record<string, unknown> = {};
  if (line.description.trim()) body.description = line.description.trim();
  if (quantity) body.quantity = /^\d+(\.\d+)?$/.test(quantity) ? Number(quantity) : quantity;
  const price = line.unit_price.trim();
  if (price) {
    const amount = typedAmount(price);
    body.unit_price = amount.ok ? amount.value : price;
  }
  // Tax only when chosen: a line without either is the spec's line, untouched.
  const rate = line.tax_rate.trim().replace(/\s*%$/, "");
  if (rate) body.tax_rate = rate;
  if (line.tax_category) body.tax_category = line.tax_category;
  return body;
}
