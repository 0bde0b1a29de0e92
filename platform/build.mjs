// The service's own code, bundled to plain JavaScript ahead of running it: `npm start` loads
// these bundles, so no TypeScript is compiled on the start path, and each process loads a few
// files instead of hundreds of small modules through tsx's loader. Plain JavaScript itself, so
// that nothing has to be compiled to decide whether to compile (docs/architecture.md, "Start-up").
//
// The bundles are cached under node_modules/.cache/remit/<key>/, the key a hash of every source
// file, package-lock.json and this file: a fresh clone (or a new `npm install`) builds once, at
// its first start; every later start reuses them until a source file changes. REMIT_BUILD_CACHE
// moves the cache (the benchmark points it at an empty directory to time a first start).
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The processes `npm start` runs, and the render thread the API starts. */
export const ENTRY_POINTS = [
  "platform/start.ts",
  "server/main.ts",
  "worker/main.ts",
  "pdf/renderWorker.ts",
];

/** Top-level directories that hold no code of the running service. */
const NOT_SOURCES = new Set(["node_modules", "test", "bench", "docs", "generated", "scripts"]);
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|js|json)$/;

/** Where bundles are cached: REMIT_BUILD_CACHE, else node_modules/.cache/remit. */
export const buildCacheDir = (env = process.env) =>
  env.REMIT_BUILD_CACHE
    ? path.resolve(env.REMIT_BUILD_CACHE)
    : path.join(root, "node_modules", ".cache", "remit");

/** Every source file under `dir`, its subdirectories read side by side. */
async function sourceFiles(dir) {
  const entries = (await readdir(dir, { withFileTypes: true })).filter(
    (entry) => !entry.name.startsWith("."),
  );
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory())
        return dir === root && NOT_SOURCES.has(entry.name) ? [] : sourceFiles(full);
      return SOURCE_FILE.test(entry.name) && !entry.name.includes(".test.") ? [full] : [];
    }),
  );
  return nested.flat();
}

/**
 * The cache key: a hash of the project's directory and of every file a bundle can be made of
 * (our sources, the lockfile that pins the packages left outside the bundles, tsconfig.json for
 * JSX, this script). Contents, not modification times: a fresh clone has new times for the same
 * files.
 */
export async function buildKey() {
  const files = (await sourceFiles(root)).sort();
  const hash = createHash("sha256");
  // The bundles hold their sources' absolute paths (import.meta.url, below): a checkout
  // elsewhere sharing this cache (a git worktree whose node_modules links to this one's) must
  // not run bundles that resolve packages and files from a directory that may be gone.
  hash.update(root);
  hash.update("\0");
  // Read at once, hashed in order: one read after another was ~150 ms of every start.
  const contents = await Promise.all(files.map((file) => readFile(file)));
  files.forEach((file, index) => {
    hash.update(path.relative(root, file));
    hash.update("\0");
    hash.update(contents[index]);
    hash.update("\0");
  });
  hash.update(process.versions.node.split(".")[0] ?? "");
  return hash.digest("hex").slice(0, 16);
}

/**
 * Each source file's `import.meta.url` is its own file's URL, as when tsx runs it: paths
 * derived from it (the project root, migrations, fonts, `createRequire`) stay where the sources
 * are, not where the bundle is.
 */
export const keepFileUrls = keepingFileUrls();

/**
 * keepFileUrls, telling `onRead` each source file it read (its path, its modification time
 * before reading, its contents): what the CLI's bundle records to know when it is stale.
 *
 * @param {(file: string, mtimeMs: number, contents: Buffer) => void} [onRead]
 */
export function keepingFileUrls(onRead) {
  return {
    name: "keep-file-urls",
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const mtimeMs = onRead ? (await stat(args.path)).mtimeMs : 0;
        const bytes = await readFile(args.path);
        onRead?.(args.path, mtimeMs, bytes);
        const source = bytes.toString("utf8");
        return {
          contents: source.replaceAll(
            "import.meta.url",
            JSON.stringify(pathToFileURL(args.path).href),
          ),
          loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
        };
      });
    },
  };
}

/**
 * Packages bundled with our code rather than loaded from node_modules: pure ESM that only our
 * code imports in these processes (no second copy can meet the bundled one), and whose loading
 * dominated start-up: viem's `viem/chains` alone loads every chain ever defined (0.4 s) where
 * the bundle keeps Base; zod and Hono's OpenAPI layer are hundreds of small modules. Every
 * other package stays in node_modules, loaded as installed (native addons, worker scripts,
 * files found at run time: Ponder, pg, graphile-worker, pdfkit, pino).
 */
export const BUNDLED_PACKAGES = new Set([
  "viem",
  "ox",
  "abitype",
  "@noble/curves",
  "@noble/hashes",
  "@noble/ciphers",
  "@scure/base",
  "@scure/bip32",
  "@scure/bip39",
  "zod",
  "hono",
  "@hono/node-server",
  "@hono/zod-openapi",
  "@hono/zod-validator",
  "@asteasolutions/zod-to-openapi",
  "openapi3-ts",
  "kysely",
]);

const packageName = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** Bundles the packages named in `names` (and our code); leaves every other one external. */
export const bundlePackages = (names) => ({
  name: "bundle-chosen-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === "entry-point" || path.isAbsolute(args.path)) return undefined;
      if (names.has(packageName(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
});

/**
 * The esbuild options every bundle of ours shares (the processes', the indexer's, the CLI's):
 * ESM for Node 22 from the project root, in `.mjs` files with shared chunks, linked source maps.
 */
export const NODE_BUNDLE_OPTIONS = {
  absWorkingDir: root,
  outbase: root,
  bundle: true,
  // Shared code (db, domain, env) in chunks every entry loads: one copy on disk for V8's
  // compile cache, instead of one per process.
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  outExtension: { ".js": ".mjs" },
  // Error and class names as written (logs, `instanceof`-free checks on `name`).
  keepNames: true,
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
};

/** Bundles the entry points into `outdir` (ESM, packages left to node_modules). */
export async function bundle(outdir) {
  const { build } = await import("esbuild");
  await build({
    ...NODE_BUNDLE_OPTIONS,
    entryPoints: ENTRY_POINTS.map((entry) => path.join(root, entry)),
    outdir,
    plugins: [keepFileUrls, bundlePackages(BUNDLED_PACKAGES)],
  });
}

/** Ponder's virtual modules, as its Vite plugin (ponder/dist/esm/build/plugin.js) makes them. */
const ponderVirtualModules = {
  name: "ponder-virtual-modules",
  setup(build) {
    build.onResolve({ filter: /^ponder:(registry|schema|api)$/ }, (args) => ({
      path: args.path,
      namespace: "ponder-virtual",
    }));
    build.onLoad({ filter: /.*/, namespace: "ponder-virtual" }, (args) => {
      const schemaPath = path.join(root, "ponder.schema.ts");
      const contents = {
        "ponder:registry":
          "export const ponder = { fns: [], on(name, fn) { this.fns.push({ name, fn }); } };",
        "ponder:schema": `import * as schema from ${JSON.stringify(schemaPath)};\nexport * from ${JSON.stringify(schemaPath)};\nexport default schema;`,
        "ponder:api": `import { createPublicClient, custom } from "viem";
if (globalThis.PONDER_INDEXING_BUILD === undefined || globalThis.PONDER_DATABASE === undefined) {
  throw new Error('Invalid dependency graph. Config, schema, and indexing function files cannot import objects from the API function file "src/api/index.ts".');
}
const publicClients = {};
for (let i = 0; i < globalThis.PONDER_INDEXING_BUILD.chains.length; i++) {
  const chain = globalThis.PONDER_INDEXING_BUILD.chains[i];
  const rpc = globalThis.PONDER_INDEXING_BUILD.rpcs[i];
  publicClients[chain.name] = createPublicClient({
    chain: chain.viemChain,
    transport: custom({ request(body) { return rpc.request(body); } }),
  });
}
export const db = globalThis.PONDER_DATABASE.readonlyQB.raw;
export { publicClients };`,
      }[args.path];
      return { contents, loader: "js", resolveDir: root };
    });
  },
};

/**
 * The indexer's code as Ponder runs it (indexer/prebuilt/): the config, the schema, every
 * indexing file under src/ and the API file, with Ponder's virtual modules, in one bundle with
 * shared chunks so that they share one schema and one registry. Every package stays external:
 * Ponder's runtime must meet the same Hono, viem and Ponder it loads itself.
 */
async function bundleIndexer(outdir) {
  const { build } = await import("esbuild");
  const indexing = (await sourceFiles(path.join(root, "src"))).filter((file) =>
    /\.(ts|mts|js|mjs)$/.test(file),
  );
  await build({
    ...NODE_BUNDLE_OPTIONS,
    entryPoints: [
      path.join(root, "ponder.config.ts"),
      path.join(root, "ponder.schema.ts"),
      ...indexing,
      { in: "ponder:registry", out: "ponder-registry" },
    ],
    outdir,
    packages: "external",
    plugins: [keepFileUrls, ponderVirtualModules],
  });
}

/**
 * Makes the cache directory; outside the project, with a link to its node_modules: the bundles'
 * packages would not resolve otherwise (they look for node_modules in the directories above).
 */
export async function prepareCache(cache) {
  await mkdir(cache, { recursive: true });
  const relative = path.relative(root, cache);
  if (relative.startsWith("..") || path.isAbsolute(relative))
    await symlink(path.join(root, "node_modules"), path.join(cache, "node_modules"), "dir").catch(
      (error) => {
        if (error.code !== "EEXIST") throw error;
      },
    );
}

/** Build directories of other keys not used for this long are removed after a build. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/**
 * The directory holding this tree's bundles, built first if the sources changed since the last
 * build (or it was never made). Safe to run twice at once: each builds into its own temporary
 * directory and the first rename wins.
 *
 * @returns {Promise<{ dir: string; built: boolean; ms: number }>}
 */
export async function ensureBuilt(env = process.env) {
  const started = performance.now();
  const cache = buildCacheDir(env);
  const key = await buildKey();
  const dir = path.join(cache, key);
  if (existsSync(path.join(dir, "platform", "start.mjs")))
    return { dir, built: false, ms: performance.now() - started };
  await prepareCache(cache);
  const temporary = path.join(cache, `${key}.tmp-${process.pid}`);
  await rm(temporary, { recursive: true, force: true });
  try {
    await Promise.all([bundle(temporary), bundleIndexer(path.join(temporary, "ponder"))]);
  } finally {
    // esbuild's service process would otherwise live as long as the supervisor (~250 MB after
    // a build): the next build, if any, starts a new one.
    const { stop } = await import("esbuild");
    await stop();
  }
  await writeFile(path.join(temporary, "built.json"), JSON.stringify({ key, root }));
  try {
    await rename(temporary, dir);
  } catch (error) {
    // Another start built the same key first: use its bundles.
    await rm(temporary, { recursive: true, force: true });
    if (!existsSync(path.join(dir, "platform", "start.mjs"))) throw error;
  }
  await removeStale(cache, key);
  return { dir, built: true, ms: performance.now() - started };
}

async function removeStale(cache, key) {
  for (const name of await readdir(cache).catch(() => [])) {
    // cli/: the CLI's bundles (cli/build.mjs), which look after their own.
    if (name === key || name === "node_modules" || name === "cli") continue;
    const full = path.join(cache, name);
    const info = await stat(full).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STALE_MS)
      await rm(full, { recursive: true, force: true }).catch(() => {});
  }
}

// `node platform/build.mjs`: build now (e.g. in an image, so its first start builds nothing).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { dir, built, ms } = await ensureBuilt();
  console.log(`${built ? "built" : "up to date"}: ${dir} (${Math.round(ms)} ms)`);
}
