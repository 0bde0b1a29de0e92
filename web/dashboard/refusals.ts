import type { ZodType } from "zod";
import { RedeliveryLimited } from "../../app/invoices/queueRedelivery.ts";
import {
  type FieldError,
  fieldErrors,
  Refusal,
  type RefusalKind,
  RetryLaterError,
} from "../../app/refusal.ts";
import { REFUSAL_HTTP_STATUS } from "../../internal/refusalHttpStatus.ts";

/**
 * The application's refusal (app/refusal.ts) as the dashboard shows it: the status its page
 * answers with, a message for the form, and the field messages by the form's field names.
 */
export type FormRefusal = {
  ok: false;
  status: (typeof PAGE_STATUS_OF)[RefusalKind];
  message: string;
  fields: Record<string, string>;
  retryAfterSeconds?: number;
};

/**
 * The status a dashboard page answers a refusal with, the form shown again: the API's status for
 * the same kind (internal/refusalHttpStatus.ts), so a page and a route refuse alike.
 */
const PAGE_STATUS_OF = REFUSAL_HTTP_STATUS satisfies Record<RefusalKind, number>;

/**
 * The message above a form shown again: `atFields` (say, "see the form below") when the
 * refusal's messages are at the form's fields, else `otherwise` (its own message, or none).
 */
export const formProblem = (
  errors: Record<string, string>,
  atFields: string | undefined,
  otherwise?: string,
): string | undefined => (Object.keys(errors).length > 0 ? atFields : otherwise);

export type Outcome<T> = ({ ok: true } & T) | FormRefusal;

const byPath = (fields: FieldError[] | undefined): Record<string, string> =>
  Object.fromEntries((fields ?? []).map((field) => [field.path || "form", field.message]));

/** A refusal as the form shows it; anything else thrown is a fault and rethrown. */
export function formRefusal(error: unknown): FormRefusal {
  if (!(error instanceof Refusal)) throw error;
  return {
    ok: false,
    status: PAGE_STATUS_OF[error.kind],
    message: error.message,
    fields: byPath(error.fields),
    ...(error instanceof RedeliveryLimited || error instanceof RetryLaterError
      ? { retryAfterSeconds: error.retryAfterSeconds }
      : {}),
  };
}

/** Runs a use case: its result, or its refusal as the form shows it. */
export async function attempt<T extends object>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, ...(await run()) };
  } catch (error) {
    return formRefusal(error);
  }
}

/**
 * A form's body checked as the API's route checks it (the same schema and field messages): its
 * data, or the 400 field messages.
 */
export function validated<T>(
  schema: ZodType<T>,
  body: unknown,
  knownKeys: (path: string) => readonly string[],
): { ok: true; data: T } | FormRefusal {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fields = fieldErrors(parsed.error, body, knownKeys);
  return { ok: false, status: 400, message: "validation failed", fields: byPath(fields) };
}
