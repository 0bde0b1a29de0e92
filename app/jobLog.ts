/**
 * Where a use case run by the worker writes its lines: the job's own logger (graphile-worker's
 * `helpers.logger`, which names the task and the job), passed in by the task.
 */
export type JobLog = {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
};
