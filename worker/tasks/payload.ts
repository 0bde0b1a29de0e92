import type { JobHelpers, Task } from "graphile-worker";
import type { z } from "zod";

/**
 * A job's payload, validated (it arrives as `unknown`). An invalid one can never succeed, so
 * it is logged and dropped rather than retried for days.
 */
export function parsePayload<T>(
  schema: z.ZodType<T>,
  payload: unknown,
  helpers: JobHelpers,
): T | null {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  helpers.logger.error(
    `${helpers.job.task_identifier}: dropping a job with an invalid payload: ${JSON.stringify(payload)}`,
  );
  return null;
}

/**
 * A task whose payload is validated first (parsePayload): an invalid one is logged and dropped,
 * a valid one is handed to `run`.
 * @example payloadTask(z.object({ id: z.uuid() }), async ({ id }, helpers) => { … })
 */
export function payloadTask<T>(
  schema: z.ZodType<T>,
  run: (payload: T, helpers: JobHelpers) => Promise<void>,
): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(schema, payload, helpers);
    if (!parsed) return;
    await run(parsed, helpers);
  };
}
