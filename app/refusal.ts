import type { ZodError } from "zod";

/** One failing field: its path in the input, a message for people, a stable code for programs. */
export type FieldError = { path: string; message: string; code: string };

/**
 * What kind of refusal it is, in the application's terms and no transport's: each adapter maps
 * it to its own answer (the API to an HTTP status in api/errors.ts, the dashboard to a form's
 * status in web/dashboard/refusals.ts, the worker to retry-or-give-up in worker/refusalVerdict.ts).
 */
export type RefusalKind =
  /** The input is malformed or fails a rule of its fields. */
  | "invalid"
  /** No credential, or one that is not valid. */
  | "unauthenticated"
  /** Money is due before the thing asked for is given (the x402 resource). */
  | "payment_required"
  /** A valid credential that may not do this. */
  | "forbidden"
  | "not_found"
  /** Well-formed, but its content cannot be acted on (a payer's authorization off its terms). */
  | "unprocessable"
  /** The thing's state does not allow it (already paid, a repeated request, …). */
  | "conflict"
  | "too_large"
  | "unsupported_media_type"
  /** A rate or budget that time clears (see RetryLaterError). */
  | "rate_limited"
  /** Something of ours is missing that an operator must fix; retrying may help later. */
  | "internal"
  /** A dependency (the database, the chain, the PDF pool) is busy or down: retry shortly. */
  | "unavailable";

/**
 * The one refusal of the application layer: every use case and read model either returns its
 * result or throws this (a kind, a stable code, a message for people, and the failing fields).
 * Each adapter maps it: the API to its JSON error body (api/errors.ts), the dashboard to a form
 * message (web/dashboard/refusals.ts), the worker to retry or give up (worker/refusalVerdict.ts).
 * Anything else thrown is a fault (a 500 with a request id).
 */
export class Refusal extends Error {
  override name = "Refusal";
  /**
   * Identifiers a program acts on (`refund_id` of the request this one repeats, say), added to
   * the error body beside `code`: never anything the caller may not see.
   */
  related?: Record<string, string>;
  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    message: string,
    readonly fields?: FieldError[],
  ) {
    super(message);
  }
}

/** A refusal that time clears (a rate, a daily budget): answered with `Retry-After`. */
export class RetryLaterError extends Refusal {
  constructor(
    kind: RefusalKind,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(kind, code, message);
  }
}

export const notFound = (what: string) =>
  new Refusal("not_found", "not_found", `${what} not found`);

/** `["line_items", 0, "unit_price"]` → `"line_items[0].unit_price"`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === "number") return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, "");
}

function closest(key: string, candidates: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0] ?? 0;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const current = row[j] ?? 0;
        row[j] = Math.min(
          current + 1,
          (row[j - 1] ?? 0) + 1,
          previous + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
        previous = current;
      }
    }
    return row[b.length] ?? Number.POSITIVE_INFINITY;
  };
  const best = candidates
    .map((candidate) => ({ candidate, d: distance(key, candidate) }))
    .sort((x, y) => x.d - y.d)[0];
  return best && best.d <= 2 ? best.candidate : undefined;
}

/** The value at `path` inside `input`, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A stable code for zod's own checks (custom rules carry theirs in `params.code`). */
function codeFor(issue: ZodError["issues"][number]): string {
  const origin = (issue as { origin?: string }).origin;
  const format = (issue as { format?: string }).format;
  switch (issue.code) {
    case "too_small":
      return origin === "array" ? "too_few" : origin === "string" ? "required" : "not_positive";
    case "too_big":
      return origin === "array" ? "too_many" : origin === "string" ? "too_long" : "too_large";
    case "invalid_format":
      return format === "email"
        ? "invalid_email"
        : format === "url"
          ? "invalid_url"
          : "invalid_format";
    case "invalid_value":
      return "invalid_enum";
    default:
      return (issue as { params?: { code?: string } }).params?.code ?? issue.code;
  }
}

/**
 * One entry per failing field, all of them at once, each with a stable `code`.
 *
 * @param input the body as received, to tell a missing field from a mistyped one
 * @param knownKeys for each object path, the keys it accepts (to suggest a fix for a typo)
 */
export function fieldErrors(
  error: ZodError,
  input: unknown,
  knownKeys: (path: string) => readonly string[] = () => [],
): FieldError[] {
  const fields: FieldError[] = [];
  for (const issue of error.issues) {
    const path = formatPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const suggestion = closest(key, knownKeys(path));
        fields.push({
          path: formatPath([...issue.path, key]),
          code: "unknown_field",
          message: suggestion
            ? `is not a known field; did you mean "${suggestion}"?`
            : "is not a known field",
        });
      }
    } else if (valueAt(input, issue.path) === undefined) {
      fields.push({ path, code: "required", message: "is required" });
    } else if (issue.code === "invalid_type") {
      fields.push({
        path,
        code: "invalid_type",
        message: issue.message.replace(/^Invalid input: /, ""),
      });
    } else {
      fields.push({ path, code: codeFor(issue), message: issue.message });
    }
  }
  return fields;
}

export const validationError = (fields: FieldError[]) =>
  new Refusal(
    "invalid",
    "validation_failed",
    `${fields.length} field${fields.length === 1 ? "" : "s"} failed validation`,
    fields,
  );
