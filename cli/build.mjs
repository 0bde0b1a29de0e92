// The CLI's bundle: cli/main.ts and what it imports, bundled to plain JavaScript so that a
// command starts without compiling TypeScript (through tsx, `remit --version` took 2.5 s of
// CPU). Like the service's bundles (platform/build.mjs) it is built by the first run that finds
// it missing or stale, after a clone, an `npm install` or a change, and reused by every other.
// Plain JavaScript itself: nothing has to be compiled to decide whether to compile.
//
// Staleness is decided from the bundle's own inputs, recorded at its build (esbuild's
// metafile): each file's size and modification time, and its contents' hash only when those
// differ (a checkout touches files it does not change). A run stats the ~60 files the CLI is
// made of, a few milliseconds, where hashing the whole tree as `npm start` does takes ~40 ms
// (over 100 ms on a loaded machine), a sixth of the CLI's start-up goal (bench/cliStartup.ts).
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  BUNDLED_PACKAGES,
  buildCacheDir,
  bundlePackages,
  keepingFileUrls,
  NODE_BUNDLE_OPTIONS,
  prepareCache,
} from "../platform/build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = "cli/main.ts";
const MANIFEST = "current.json";

/**
 * What decides the bundle besides the sources it is made of: the lockfile (the packages bundled
 * or loaded from node_modules), tsconfig.json (JSX), the scripts that build it.
 */
const ALSO_INPUTS = ["package-lock.json", "tsconfig.json", "cli/build.mjs", "platform/build.mjs"];

/** The service's bundled packages, and the CLI's own (commander, the prompts). */
const CLI_PACKAGES = new Set([
  ...BUNDLED_PACKAGES,
  "commander",
  "@clack/prompts",
  "@clack/core",
  "picocolors",
  "sisteransi",
]);

/**
 * Where this checkout's CLI bundles are: under the service's build cache (REMIT_BUILD_CACHE,
 * else node_modules/.cache/remit), in a directory of this checkout and Node major version (git
 * worktrees may share one node_modules; the bundles hold their sources' absolute paths).
 */
export function cliCacheDir(env = process.env) {
  const id = createHash("sha256")
    .update(`${root}\0${process.versions.node.split(".")[0]}`)
    .digest("hex")
    .slice(0, 16);
  return path.join(buildCacheDir(env), "cli", id);
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/**
 * The bundle's entry, when a build of the current sources is there; undefined otherwise.
 * Inputs whose time changed but not their contents are recorded again (best effort).
 */
export function freshCliBundle(env = process.env) {
  const dir = cliCacheDir(env);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), "utf8"));
  } catch {
    return undefined;
  }
  const entry = path.join(dir, String(manifest.build), "cli", "main.mjs");
  let retimed = false;
  for (const [file, [size, mtimeMs, hash]] of Object.entries(manifest.inputs ?? {})) {
    const full = path.join(root, file);
    let info;
    try {
      info = statSync(full);
    } catch {
      return undefined;
    }
    if (info.size !== size) return undefined;
    if (info.mtimeMs === mtimeMs) continue;
    if (sha256(readFileSync(full)) !== hash) return undefined;
    manifest.inputs[file] = [size, info.mtimeMs, hash];
    retimed = true;
  }
  if (!existsSync(entry)) return undefined;
  if (retimed) writeManifest(dir, manifest).catch(() => {});
  return entry;
}

async function writeManifest(dir, manifest) {
  const temporary = path.join(dir, `${MANIFEST}.${process.pid}-${randomBytes(4).toString("hex")}`);
  await writeFile(temporary, JSON.stringify(manifest));
  // Atomic: a run reading the manifest sees the old one or the new one, never half of one.
  await rename(temporary, path.join(dir, MANIFEST));
}

/**
 * Bundles the CLI into a new directory of the cache and records it as current, with each of
 * its inputs' size, time and hash. Two runs building at once each make their own; the last
 * recorded wins, both are whole.
 *
 * @returns {Promise<string>} the bundle's entry
 */
export async function buildCli(env = process.env) {
  const dir = cliCacheDir(env);
  await prepareCache(buildCacheDir(env));
  const name = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
  const outdir = path.join(dir, name);
  /** @type {Record<string, [number, number, string]>} */
  const inputs = {};
  const record = (file, mtimeMs, bytes) => {
    inputs[path.relative(root, file)] = [bytes.length, mtimeMs, sha256(bytes)];
  };
  // Read before building: a change made while it builds makes the bundle stale, never fresh.
  for (const file of ALSO_INPUTS) {
    const full = path.join(root, file);
    const info = await stat(full).catch(() => undefined);
    if (info) record(full, info.mtimeMs, await readFile(full));
  }
  const { build, stop } = await import("esbuild");
  let metafile;
  try {
    ({ metafile } = await build({
      // Split too: each command's own modules (viem, the database, the prompts) in chunks loaded
      // when it runs.
      ...NODE_BUNDLE_OPTIONS,
      entryPoints: [path.join(root, ENTRY)],
      outdir,
      metafile: true,
      plugins: [keepingFileUrls(record), bundlePackages(CLI_PACKAGES)],
    }));
  } finally {
    await stop();
  }
  // The inputs esbuild read itself (package.json's JSON), outside node_modules (the lockfile
  // stands for those).
  for (const file of Object.keys(metafile.inputs)) {
    if (file.split(/[\\/]/).includes("node_modules") || file.includes(":")) continue;
    const full = path.resolve(root, file);
    const relative = path.relative(root, full);
    if (inputs[relative]) continue;
    const info = await stat(full);
    record(full, info.mtimeMs, await readFile(full));
  }
  await writeManifest(dir, { build: name, inputs });
  await removeOldBuilds(dir, name);
  return path.join(outdir, "cli", "main.mjs");
}

/**
 * Builds no longer current: the two newest are kept (a run that read the manifest just before
 * a new build replaced it may still be loading its chunks), older ones go after an hour.
 */
async function removeOldBuilds(dir, current) {
  const entries = [];
  for (const name of await readdir(dir).catch(() => [])) {
    if (name === current || name === MANIFEST) continue;
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info) entries.push({ name, mtimeMs: info.mtimeMs });
  }
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const hourAgo = Date.now() - 3600_000;
  for (const { name, mtimeMs } of entries.slice(2))
    if (mtimeMs < hourAgo) await rm(path.join(dir, name), { recursive: true, force: true });
}

/** The bundle's entry: the current one, else one built now. */
export async function cliBundle(env = process.env) {
  return freshCliBundle(env) ?? (await buildCli(env));
}

// `node cli/build.mjs`: build now (e.g. in an image, so its first command builds nothing).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = performance.now();
  const fresh = freshCliBundle();
  const entry = fresh ?? (await buildCli());
  console.log(
    `${fresh ? "up to date" : "built"}: ${entry} (${Math.round(performance.now() - started)} ms)`,
  );
}
