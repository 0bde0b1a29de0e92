import { randomUUID } from "node:crypto";
import type { FormFields } from "./forms.ts";
import { attempt, type FormRefusal, type Outcome } from "./refusals.ts";

/**
 * A dashboard form that moves money or changes what is owed carries a one-time action key,
 * made when the form is rendered and sent as the use case's Idempotency-Key: a double click, a
 * reload or a back button resubmits the same key and is answered by the first request, never
 * done twice (app/idempotency.ts).
 */
export const newActionKey = (): string => `dashboard-${randomUUID()}`;

/** A submitted action key, when it is one a form could carry (the API's Idempotency-Key rule). */
export function actionKeyOf(value: string | undefined): string | undefined {
  return value !== undefined && /^[\x21-\x7e]{1,255}$/.test(value) ? value : undefined;
}

/**
 * The confirmed step of a two-step form (refund, credit note, payout): the use case run on the
 * checked input under the confirmation's action key, or the input's refusal. A confirmation
 * without a key (a form from before keys) gets one of its own, and the API's duplicate window
 * still refuses a repeat. The key comes back for the page after the redirect.
 */
export async function runConfirmed<T, R extends object>(
  form: FormFields,
  input: { ok: true; data: T } | FormRefusal,
  run: (data: T, key: string) => Promise<R>,
): Promise<{ key: string; done: Outcome<R> }> {
  const key = actionKeyOf(form.idempotency_key) ?? newActionKey();
  const done = input.ok ? await attempt(() => run(input.data, key)) : input;
  return { key, done };
}
