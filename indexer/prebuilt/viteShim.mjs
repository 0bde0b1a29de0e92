// Stands in for Vite and vite-node in Ponder's build (register.mjs): a file Ponder asks to
// execute is imported from its bundle (platform/build.mjs: every indexing file, the config, the
// schema and Ponder's virtual `ponder:*` modules bundled together, so they share one schema and
// one registry, as vite-node's module cache made them share).
import path from "node:path";
import { pathToFileURL } from "node:url";

const bundles = process.env.REMIT_PONDER_BUILD ?? "";

/** The bundle of a source file, or of a virtual module (`ponder:registry`). */
function bundled(id, root) {
  const relative = id.startsWith("ponder:")
    ? id.replace(":", "-")
    : path.relative(root, id).replace(/\.(ts|mts|js|mjs)$/, "");
  return pathToFileURL(path.join(bundles, `${relative}.mjs`)).href;
}

/** A module's exports as vite-node returns them: a plain object. */
const exportsOf = async (url) => ({ ...(await import(url)) });

/** vite's createServer: nothing to serve or watch; `start` never reloads. */
export async function createServer(options) {
  return {
    config: { root: options.root },
    pluginContainer: { buildStart: async () => {} },
    watcher: { on() {} },
    close: async () => {},
  };
}

export class ViteNodeServer {
  getSourceMap() {
    return null;
  }
}

export class ViteNodeRunner {
  constructor(options) {
    this.root = options.root;
  }
  moduleCache = { invalidateDepTree: () => new Set(), deleteByModuleId() {} };
  executeFile(file) {
    return exportsOf(bundled(file, this.root));
  }
  executeId(id) {
    return exportsOf(bundled(id, this.root));
  }
}

export function installSourcemapsSupport() {}
export const normalizeModuleId = (id) => id;
export const toFilePath = (id) => ({ path: id, exists: true });
export default function viteTsconfigPaths() {
  return { name: "vite-tsconfig-paths" };
}
