import { stat } from "node:fs/promises";

/** Whether something is at `file` (a file or a directory); unreadable counts as absent. */
export const fileExists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );
