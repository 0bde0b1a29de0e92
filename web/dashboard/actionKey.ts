import { randomUUID } from "node:crypto";

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
