/**
 * `metadata`: the integrator's own keys on a payment link or an invoice (an order id, a
 * customer id), echoed in the API's bodies, the exports and the webhooks. One flat object with
 * the same limits on both (app/schemaFields.ts metadataSchema validates them).
 */
export type MetadataValue = string | number | boolean | null;
export type Metadata = Record<string, MetadataValue>;

/** Keys at most, each of 1–40 letters, digits, `_`, `.` or `-`; strings of 500 characters at most. */
export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;
export const METADATA_MAX_STRING = 500;

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * The stored values a list filter's text (`?metadata[order_id]=1042`, always a string in a
 * URL) matches: the string itself, and the number, boolean or null it spells, so a key stored
 * as `1042` or as `"1042"` is found by `1042` alike.
 *
 * @example metadataFilterValues("1042") // ["1042", 1042]
 * @example metadataFilterValues("true") // ["true", true]
 */
export function metadataFilterValues(text: string): MetadataValue[] {
  const values: MetadataValue[] = [text];
  if (JSON_NUMBER.test(text) && Number.isFinite(Number(text))) values.push(Number(text));
  if (text === "true" || text === "false") values.push(text === "true");
  if (text === "null") values.push(null);
  return values;
}
