import { z } from "@hono/zod-openapi";
import type { ListPage } from "../../db/queries/listPage.ts";
import { decodeListCursor, type ListKind } from "../../domain/listCursor.ts";
import {
  METADATA_KEY_PATTERN,
  METADATA_MAX_KEYS,
  METADATA_MAX_STRING,
} from "../../domain/metadata.ts";
import { type FieldError, validationError } from "../refusal.ts";
import { CONTROL_CHARACTERS } from "../schemaFields.ts";

/** Rows per page when `limit` is not given, and the most one page may hold. */
export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;

/** A refinement's message and its stable field `code` (app/refusal.ts reads `params.code`). */
export const rule = (code: string, message: string) => ({ message, params: { code } });

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
/** An amount filter: a USDC decimal with up to 6 decimals, a whole number allowed (`100`). */
const AMOUNT = /^(0|[1-9]\d{0,11})(\.\d{1,6})?$/;

/** A real calendar date (no 2026-02-30). */
const isRealDate = (value: string) =>
  DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

const param = (name: string, description: string, example?: string) => ({
  param: { name, in: "query" as const },
  description,
  ...(example ? { example } : {}),
});

/** `created_from`, `paid_to`, `from`…: a date (whole UTC day) or an ISO 8601 moment. */
export const momentParam = (name: string, description: string, example?: string) =>
  z
    .string()
    .refine(
      (value) =>
        isRealDate(value) ||
        (MOMENT.test(value) && !Number.isNaN(Date.parse(value)) && isRealDate(value.slice(0, 10))),
      rule(
        "invalid_date",
        "must be a date (YYYY-MM-DD, a whole day in UTC) or an ISO 8601 time with its offset",
      ),
    )
    .optional()
    .openapi(param(name, description, example));

export const dateParam = (name: string, description: string) =>
  z
    .string()
    .refine(isRealDate, rule("invalid_date", "must be a date written YYYY-MM-DD"))
    .optional()
    .openapi(param(name, description));

export const amountParam = (name: string, description: string, example?: string) =>
  z
    .string()
    .refine(
      (value) => AMOUNT.test(value),
      rule("invalid_decimal", "must be a USDC amount such as 100 or 99.50 (at most 6 decimals)"),
    )
    .optional()
    .openapi(param(name, description, example));

/** A comma-separated list of values of `allowed`, each at most once. */
export const enumListParam = (name: string, allowed: readonly string[], description: string) =>
  z
    .string()
    .refine(
      (value) => value.split(",").every((part) => allowed.includes(part)),
      rule("invalid_enum", `must be one or more of ${allowed.join(", ")}, separated by commas`),
    )
    .optional()
    .openapi(
      param(
        name,
        `${description} One or more of ${allowed.map((s) => `\`${s}\``).join(", ")}, comma-separated.`,
      ),
    );

export const searchParam = (description: string) =>
  z
    .string()
    .trim()
    .min(1, rule("required", "must not be empty"))
    .max(100, rule("too_long", "must be at most 100 characters"))
    .refine(
      (value) => !CONTROL_CHARACTERS.test(value),
      rule("invalid_characters", "must not contain control characters"),
    )
    .optional()
    .openapi(param("q", description, "globex"));

/** `limit` and `cursor`, which every list takes. */
export const pageParams = {
  limit: z
    .string()
    .refine(
      (value) => /^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_LIST_LIMIT,
      rule("out_of_range", `must be a whole number from 1 to ${MAX_LIST_LIMIT}`),
    )
    .optional()
    .openapi(
      param("limit", `Rows per page: 1–${MAX_LIST_LIMIT}, default ${DEFAULT_LIST_LIMIT}.`, "50"),
    ),
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi(
      param(
        "cursor",
        "The `next_cursor` of the previous page, as it was given (opaque). Absent: the first page, newest first.",
      ),
    ),
};

/** The page asked for; a cursor that is not one of this list's is a 400 on `cursor`. */
export function pageOf(
  kind: ListKind,
  query: { limit?: string | undefined; cursor?: string | undefined },
): ListPage {
  const limit = query.limit ? Number(query.limit) : DEFAULT_LIST_LIMIT;
  if (query.cursor === undefined) return { limit };
  const after = decodeListCursor(kind, query.cursor);
  if (!after)
    throw validationError([
      {
        path: "cursor",
        code: "invalid_cursor",
        message: "is not a cursor of this list: pass a next_cursor exactly as it was given",
      },
    ]);
  return { limit, after };
}

/** The moment a `…_from` parameter starts at: a date's midnight UTC, or the moment given. */
export const startOf = (value: string): Date =>
  new Date(DATE.test(value) ? `${value}T00:00:00Z` : value);

/** The moment a `…_to` parameter ends before: a date's next midnight UTC (the whole day is in), or the moment given. */
export function endOf(value: string): Date {
  if (!DATE.test(value)) return new Date(value);
  const end = new Date(`${value}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return end;
}

/** USDC base units of an amount filter (validated by amountParam). */
export function baseUnits(value: string): bigint {
  const [whole = "0", fraction = ""] = value.split(".");
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
}

/**
 * A range whose end comes before its start is refused (400 naming the end), so a swapped pair
 * is not taken for "nothing matches".
 */
export function assertRanges(
  ranges: {
    from?: bigint | Date | string | undefined;
    to?: bigint | Date | string | undefined;
    path: string;
  }[],
): void {
  const fields: FieldError[] = [];
  for (const { from, to, path } of ranges) {
    if (from === undefined || to === undefined) continue;
    if (to < from)
      fields.push({
        path,
        code: "before_start",
        message: "must not come before the start of its range",
      });
  }
  if (fields.length) throw validationError(fields);
}

/** `metadata[order_id]=1042`: one parameter per key (OpenAPI's deepObject style). */
const METADATA_PARAM = /^metadata\[(.*)\]$/;

/**
 * `metadata`, the filter on the integrator's own keys: `?metadata[order_id]=1042` keeps what
 * has that key with that value (domain/metadata.ts metadataFilterValues: `1042` finds the string
 * and the number), several keys all of them. Its parameters are read by metadataFilterOf.
 */
export const metadataParam = (description: string) =>
  z
    .record(z.string(), z.string())
    .optional()
    .openapi({
      param: { name: "metadata", in: "query", style: "deepObject", explode: true },
      description,
      example: { order_id: "1042" },
    });

/**
 * The `metadata[key]=value` parameters of a query, checked as `metadata` itself is (the same
 * keys, values of at most 500 characters, at most 20 keys), and the other parameters; a bad
 * one is a 400 naming it.
 */
export function metadataFilterOf(params: Record<string, string>): {
  metadata: Record<string, string> | undefined;
  rest: Record<string, string>;
} {
  const metadata: Record<string, string> = {};
  const rest: Record<string, string> = {};
  const fields: FieldError[] = [];
  for (const [name, value] of Object.entries(params)) {
    const key = METADATA_PARAM.exec(name)?.[1];
    if (key === undefined) {
      rest[name] = value;
      continue;
    }
    if (!METADATA_KEY_PATTERN.test(key))
      fields.push({
        path: name,
        code: "invalid_metadata_key",
        message: "metadata keys are 1–40 letters, digits, _ . -",
      });
    else if (value.length > METADATA_MAX_STRING || CONTROL_CHARACTERS.test(value))
      fields.push({
        path: name,
        code: "invalid_metadata_value",
        message: `must be at most ${METADATA_MAX_STRING} characters, without control characters`,
      });
    else metadata[key] = value;
  }
  if (Object.keys(metadata).length > METADATA_MAX_KEYS)
    fields.push({
      path: "metadata",
      code: "too_many",
      message: `must have at most ${METADATA_MAX_KEYS} keys`,
    });
  if (fields.length) throw validationError(fields);
  return { metadata: Object.keys(metadata).length ? metadata : undefined, rest };
}

/**
 * A query parameter the list does not know is a 400 naming it: `?stauts=paid` silently ignored
 * would answer every invoice as if they were the paid ones.
 */
export function assertKnownParams(params: Record<string, string>, known: readonly string[]): void {
  const unknown = Object.keys(params).filter((name) => !known.includes(name));
  if (unknown.length)
    throw validationError(
      unknown.map((name) => ({
        path: name,
        code: "unknown_field",
        message: `is not a parameter of this list (known: ${known.join(", ")})`,
      })),
    );
}
