import type { TaskList } from "graphile-worker";

/** Every task the worker runs, by name; each lives in its own file in this folder. */
export const taskList: TaskList = {};
