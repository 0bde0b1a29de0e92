import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, expect, test } from "vitest";
import { projectRoot } from "../internal/projectRoot.ts";
import { cliBundle, cliCacheDir, freshCliBundle } from "./build.mjs";

const run = promisify(execFile);

let cache: string | undefined;
afterEach(async () => {
  if (cache) await rm(cache, { recursive: true, force: true });
  cache = undefined;
});

type Manifest = { build: string; inputs: Record<string, [number, number, string]> };

test("a fresh checkout's first command bundles the CLI, the next ones reuse it", async () => {
  cache = await mkdtemp(path.join(tmpdir(), "remit-cli-build-"));
  const env = { ...process.env, REMIT_BUILD_CACHE: cache };
  const remit = path.join(projectRoot, "cli/remit.mjs");
  const first = await run(process.execPath, [remit, "--version"], { env });
  expect(first.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  // No TypeScript loader on the way: the command ran the bundle.
  expect(first.stderr).toBe("");
  const dir = cliCacheDir(env);
  const builds = async () => (await readdir(dir)).filter((name) => name !== "current.json");
  expect(await builds()).toHaveLength(1);
  await run(process.execPath, [remit, "--version"], { env });
  expect(await builds()).toHaveLength(1);

  // Its inputs: the CLI's sources (not the service's), the lockfile and the build scripts.
  const manifest = JSON.parse(await readFile(path.join(dir, "current.json"), "utf8")) as Manifest;
  const inputs = Object.keys(manifest.inputs);
  expect(inputs).toEqual(
    expect.arrayContaining([
      "cli/main.ts",
      "cli/resources.ts",
      "package.json",
      "package-lock.json",
      "cli/build.mjs",
      "platform/build.mjs",
    ]),
  );
  expect(inputs.some((file) => file.startsWith("server/") || file.includes("node_modules"))).toBe(
    false,
  );
});

test("stale when an input's contents differ; a new time alone is not a change", async () => {
  cache = await mkdtemp(path.join(tmpdir(), "remit-cli-build-"));
  const env = { REMIT_BUILD_CACHE: cache };
  const entry = await cliBundle(env);
  expect(freshCliBundle(env)).toBe(entry);
  const manifestFile = path.join(cliCacheDir(env), "current.json");
  const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as Manifest;

  // A checkout rewrote a file with the same contents: its time moved, the bundle holds.
  const [size, , hash] = manifest.inputs["cli/io.ts"] ?? [0, 0, ""];
  const touched = { ...manifest, inputs: { ...manifest.inputs, "cli/io.ts": [size, 1, hash] } };
  await writeFile(manifestFile, JSON.stringify(touched));
  expect(freshCliBundle(env)).toBe(entry);
  // …and the new time is recorded, so the next command does not hash it again.
  await expect
    .poll(async () => {
      const again = JSON.parse(await readFile(manifestFile, "utf8")) as Manifest;
      return again.inputs["cli/io.ts"]?.[1];
    })
    .not.toBe(1);

  // The contents changed (the recorded hash is another file's): stale, and rebuilt.
  const changed = {
    ...manifest,
    inputs: { ...manifest.inputs, "cli/io.ts": [size, 1, "0".repeat(64)] },
  };
  await writeFile(manifestFile, JSON.stringify(changed));
  expect(freshCliBundle(env)).toBeUndefined();
  const rebuilt = await cliBundle(env);
  expect(rebuilt).not.toBe(entry);
  expect(freshCliBundle(env)).toBe(rebuilt);

  // A file the bundle was made of is gone: stale.
  const gone = { ...manifest, inputs: { ...manifest.inputs, "cli/gone.ts": [1, 1, hash] } };
  await writeFile(manifestFile, JSON.stringify(gone));
  expect(freshCliBundle(env)).toBeUndefined();
});
