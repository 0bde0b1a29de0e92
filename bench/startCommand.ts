import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../internal/projectRoot.ts";

/**
 * The arguments `npm start` gives node (package.json's `start` script, `exec node …`): a
 * benchmark starts the service exactly as an operator does, V8 flags included.
 *
 * @example npmStartNodeArgs() // ["--max-semi-space-size=1", "<root>/platform/launch.mjs"]
 */
export function npmStartNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = scripts.start.trim().split(/\s+/);
  const node = words.indexOf("node");
  if (node < 0) throw new Error(`package.json's start script does not run node: ${scripts.start}`);
  return words
    .slice(node + 1)
    .map((word) => (/\.(ts|mjs)$/.test(word) ? path.join(projectRoot, word) : word));
}
