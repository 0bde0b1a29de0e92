/**
 * Whether a database error is the database being unavailable or overloaded rather than a bug:
 * the request may well succeed if retried shortly, so the API answers 503 with Retry-After
 * instead of a 500 (and never hangs: pools give up after a connection timeout, queries after
 * the statement timeout).
 */
export function isTransientDatabaseError(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (typeof cause !== "object") return false;
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (TRANSIENT_SQLSTATE.test(code) || SOCKET_CODES.has(code)))
      return true;
    if (typeof message === "string" && TRANSIENT_MESSAGES.some((text) => message.includes(text)))
      return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * SQLSTATEs: class 08 connection exceptions, class 53 insufficient resources (53300 too many
 * connections), 57014 statement timeout / cancel, 57P01–57P03 shutdown and start-up, 55P03
 * lock timeout, 40001/40P01 serialization failure and deadlock.
 */
const TRANSIENT_SQLSTATE = /^(08...|53...|57014|57P0[123]|55P03|40001|40P01)$/;

/** Node's socket errors while the server is down or restarting. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]);

/** node-postgres's own errors, which carry no code. */
const TRANSIENT_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated",
  "Client has encountered a connection error",
  "Query read timeout",
];
