// `npm start`: platform/start.ts and the processes it starts, run from bundled JavaScript
// (platform/build.mjs), built at the first start after a clone or a change and reused after.
import module from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt } from "./build.mjs";

// V8's compiled code of every module, reused at the next start (the children get the same
// setting from platform/children.ts): Node's own default place.
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), "node-compile-cache");
module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE);

const launchedAt = performance.now();
let bundles;
try {
  bundles = await ensureBuilt();
} catch (error) {
  // A cache that cannot be written (a read-only install) must not stop the service: it runs
  // from its TypeScript sources, as before bundling, only slower to start.
  process.stderr.write(
    `could not bundle the service (${error instanceof Error ? error.message : error}); running its TypeScript through tsx\n`,
  );
}
if (bundles) {
  // The supervisor starts the API, the worker and the API's render threads from the same bundles.
  process.env.REMIT_BUILD_DIR = bundles.dir;
  // For the `ready` line's phases (platform/start.ts): when the bundles were found or made.
  globalThis.remitBuild = { readyAt: Math.round(launchedAt + bundles.ms), built: bundles.built };
  await import(pathToFileURL(path.join(bundles.dir, "platform", "start.mjs")).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./start.ts");
}
