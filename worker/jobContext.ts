import type { JobHelpers, Task, TaskList } from "graphile-worker";
import type { AddJob } from "../app/jobQueue.ts";
import { withLogContext } from "../internal/logContext.ts";
import type { WorkerDeps } from "./deps.ts";

/**
 * The same tasks, each run in a log context naming its job (`job_id`, `task`), so every line
 * written during a job carries them, from the task or from any module it calls.
 */
export function withJobContext(tasks: TaskList): TaskList {
  return Object.fromEntries(
    Object.entries(tasks).flatMap(([name, task]): [string, Task][] =>
      task
        ? [
            [
              name,
              (payload, helpers) =>
                withLogContext({ job_id: helpers.job.id, task: name }, () =>
                  task(payload, helpers),
                ),
            ],
          ]
        : [],
    ),
  );
}

/** The job's `helpers.addJob` as app/'s use cases take it (app/jobQueue.ts). */
export const addJobOf =
  (helpers: JobHelpers): AddJob =>
  (task, payload, spec) =>
    helpers.addJob(task, payload, spec);

/** What every use case run by a job takes from it: the database, the next job, the job's logger. */
export const jobDeps = (deps: Pick<WorkerDeps, "db">, helpers: JobHelpers) => ({
  db: deps.db,
  addJob: addJobOf(helpers),
  log: helpers.logger,
});
