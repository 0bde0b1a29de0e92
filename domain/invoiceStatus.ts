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

/** Today's date in UTC as YYYY-MM-DD. */
export const utcToday = (now: Date = new Date()): string => now.toISOString().slice(0, 10);
