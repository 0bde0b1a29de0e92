import { AsyncLocalStorage } from "node:async_hooks";

/** Fields every log line carries while a unit of work runs: a request id, a job id. */
export type LogContext = Readonly<Record<string, string | number>>;

const storage = new AsyncLocalStorage<LogContext>();

/**
 * Runs `work` with `fields` added to every log line written until it settles, by this code or
 * by anything it calls (the logger reads them through pino's mixin), without threading a
 * logger through every function. Nested contexts add to the outer one.
 *
 * @example
 * await withLogContext({ request_id: id }, () => next());
 */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  const outer = storage.getStore();
  return storage.run(outer ? { ...outer, ...fields } : fields, work);
}

/** The fields of the unit of work in progress, if any. */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}
