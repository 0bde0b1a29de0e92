// Module resolution hooks (register.mjs), in both of Node's forms: Ponder's build module asks for Vite and vite-node;
// it gets viteShim.mjs, which executes the prebuilt bundles instead. In Node's in-thread form,
// relative imports inside node_modules are also resolved faster (fastResolve.mjs).
import { fastResolve } from "./fastResolve.mjs";

let shim;

/** What Ponder's build/index.js imports from Vite's packages. */
const REPLACED = new Set([
  "vite",
  "vite-node/client",
  "vite-node/server",
  "vite-node/source-map",
  "vite-node/utils",
  "vite-tsconfig-paths",
]);

export function initialize(data) {
  shim = data.shim;
}

const replaced = (specifier, context) =>
  REPLACED.has(specifier) && context.parentURL?.includes("/node_modules/ponder/dist/esm/build/");

/** For module.register (a hooks thread). */
export async function resolve(specifier, context, nextResolve) {
  if (replaced(specifier, context)) return { url: shim, shortCircuit: true };
  return nextResolve(specifier, context);
}

/** For module.registerHooks (in thread, synchronous). */
export const resolveSync = (shimUrl) => (specifier, context, nextResolve) =>
  replaced(specifier, context)
    ? { url: shimUrl, shortCircuit: true }
    : fastResolve(specifier, context, nextResolve);
