// A faster resolution of the relative imports inside node_modules, for the indexer (register.mjs).
//
// Ponder's runtime loads ~2,400 modules, ~5,400 of its resolutions relative ("./x.js" inside a
// package). Node resolves each one by finding the file's package scope and reading its
// package.json, and Node 22 parses that package.json's whole "exports" map again at every
// lookup: viem's alone, once per each of its ~1,100 files, was ~0.5 s of the indexer's start
// (a CPU profile of importing Ponder's `start` command: 0.78 s in package_json_reader of 2.3 s).
// A relative specifier needs none of that: the URL is the parent's plus the specifier, and its
// format is the "type" of the nearest package.json, read once per directory here.
//
// Only what is certain is answered: `./` and `../` specifiers, from a file inside node_modules,
// of a file that is there, ending in .mjs or .js, the latter under a package.json with an
// explicit "type" (a typeless scope is left to Node, which may detect ES module syntax).
// Everything else goes to Node.
// Plain JavaScript: it runs before anything could compile TypeScript.
import { readFileSync, statSync } from "node:fs";

/** Each directory's package scope type ("module" | "commonjs"), or null when Node decides. */
const scopeTypes = new Map();

/** The "type" of the package.json nearest above `directory` (a URL ending in "/"). */
function scopeType(directory) {
  const visited = [];
  let type;
  for (let dir = directory; type === undefined; ) {
    const known = scopeTypes.get(dir);
    if (known !== undefined) {
      type = known;
      break;
    }
    visited.push(dir);
    try {
      const declared = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")).type;
      type = declared === "module" || declared === "commonjs" ? declared : null;
    } catch (error) {
      // No package.json here: look one level up, as Node does, but not past node_modules/.
      const parent = new URL("../", dir).href;
      if (error.code !== "ENOENT" || dir.endsWith("/node_modules/") || parent === dir) type = null;
      else dir = parent;
    }
  }
  for (const dir of visited) scopeTypes.set(dir, type);
  return type;
}

/** A resolve hook for module.registerHooks: the certain relative cases here, the rest to Node. */
export function fastResolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (
    (specifier.startsWith("./") || specifier.startsWith("../")) &&
    parent?.startsWith("file:") &&
    parent.includes("/node_modules/") &&
    context.importAttributes?.type === undefined
  ) {
    const url = new URL(specifier, parent);
    // A file that is not there is Node's to report (ERR_MODULE_NOT_FOUND, which code may test).
    if (
      url.search === "" &&
      url.hash === "" &&
      statSync(url, { throwIfNoEntry: false })?.isFile()
    ) {
      if (url.pathname.endsWith(".mjs"))
        return { url: url.href, format: "module", shortCircuit: true };
      if (url.pathname.endsWith(".js")) {
        const format = scopeType(new URL("./", url).href);
        if (format) return { url: url.href, format, shortCircuit: true };
      }
    }
  }
  return nextResolve(specifier, context);
}
