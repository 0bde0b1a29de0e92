/**
 * The upper bound of a test's wait for one event (a payment counted, a sweep confirmed, an email
 * in the outbox, a page's step): seconds on a quiet machine; over 30 s on a two-core machine
 * running a test run beside other jobs (load 18). A bound, never a figure: a test waits for the
 * event and goes on as soon as it comes, so only a failure takes this long. Speed is measured in
 * bench/, not here.
 */
export const EVENT_MS = 120_000;
