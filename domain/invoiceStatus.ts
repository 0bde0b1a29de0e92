import { isOverdue } from "./moneyRules.ts";
import type { ReportedInvoiceStatus, StoredInvoiceStatus } from "./statuses.ts";

// Defined with their lists in statuses.ts; named here too, where callers have long found them.
export type { ReportedInvoiceStatus, StoredInvoiceStatus };

/**
 * The status an invoice reports: its stored status, or `overdue` when isOverdue (moneyRules.ts)
 * says so: still `draft` or `sent` and its due date before `today` (both YYYY-MM-DD, UTC).
 *
 * @example reportedStatus("sent", "2026-01-31", "2026-02-01") // "overdue"
 */
export function reportedStatus(
  stored: StoredInvoiceStatus,
  dueDate: string,
  today: string,
): ReportedInvoiceStatus {
  return isOverdue(stored, dueDate, today) ? "overdue" : stored;
}

/**
 * The stored statuses an invoice can be voided from: unpaid (`overdue` is `sent` or `draft`
 * past its due date). A payment, even in part, makes it a refund's business instead.
 */
export const VOIDABLE_INVOICE_STATUSES = ["draft", "sent"] as const satisfies StoredInvoiceStatus[];

/**
 * Whether an invoice in this status (stored or reported) may be voided: the one rule the void
 * use case, its query and the dashboard's button read.
 *
 * @example isVoidable("overdue") // true
 */
export function isVoidable(status: StoredInvoiceStatus | ReportedInvoiceStatus): boolean {
  return status === "overdue" || (VOIDABLE_INVOICE_STATUSES as readonly string[]).includes(status);
}

/** Today's date in UTC as YYYY-MM-DD. */
export const utcToday = (now: Date = new Date()): string => now.toISOString().slice(0, 10);
