// Preloaded (`node --import`) into the indexer by `npm start` when it runs from bundles: Ponder
// then loads its indexing code (ponder.config.ts, ponder.schema.ts, src/) from JavaScript that
// platform/build.mjs bundled ahead, instead of building it with a Vite dev server at every
// start (docs/architecture.md, "Start-up"). Ponder's own build steps (validation, build id,
// crash recovery) run unchanged: only how a file is executed is replaced.
//
// Plain JavaScript: this runs before anything could compile TypeScript.
import { readFileSync } from "node:fs";
import module from "node:module";
import { resolveSync } from "./hooks.mjs";

/** The Ponder releases whose build (build/index.js) this replacement was written against. */
const SUPPORTED = /^0\.16\./;

const ponderPackage = new URL("../../node_modules/ponder/package.json", import.meta.url);
const version = (() => {
  try {
    return JSON.parse(readFileSync(ponderPackage, "utf8")).version;
  } catch {
    return undefined;
  }
})();

if (process.env.REMIT_PONDER_BUILD && version && SUPPORTED.test(version)) {
  const shim = new URL("./viteShim.mjs", import.meta.url).href;
  // In-thread hooks where Node has them (22.15+): Ponder resolves thousands of modules, and
  // module.register's hooks answer each over a message to their own thread.
  if (module.registerHooks) module.registerHooks({ resolve: resolveSync(shim) });
  else module.register(new URL("./hooks.mjs", import.meta.url), { data: { shim } });
} else if (process.env.REMIT_PONDER_BUILD) {
  // Another Ponder: its own build, as before (slower, never wrong).
  process.stderr.write(
    `prebuilt indexer code is for Ponder 0.16; found ${version ?? "none"}: using Ponder's own build\n`,
  );
}
