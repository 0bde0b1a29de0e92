import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root directory, wherever the process was started from. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
