import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, expect, test } from "vitest";
import { projectRoot } from "../internal/projectRoot.ts";
import { ensureBuilt } from "./build.mjs";

let cache: string | undefined;
afterEach(async () => {
  if (cache) await rm(cache, { recursive: true, force: true });
});

test("bundles once per source tree, then reuses them; paths stay the sources'", async () => {
  cache = await mkdtemp(path.join(tmpdir(), "remit-build-"));
  const env = { REMIT_BUILD_CACHE: cache };
  const first = await ensureBuilt(env);
  expect(first.built).toBe(true);
  const again = await ensureBuilt(env);
  expect(again).toMatchObject({ built: false, dir: first.dir });
  // One build directory, no temporary left behind; outside the project, a link to its
  // node_modules so that the bundles' packages resolve.
  expect((await readdir(cache)).sort()).toEqual([path.basename(first.dir), "node_modules"].sort());

  for (const entry of ["platform/start", "server/main", "worker/main", "pdf/renderWorker"])
    await expect(readFile(path.join(first.dir, `${entry}.mjs`), "utf8")).resolves.toBeTruthy();
  const start = await readFile(path.join(first.dir, "platform/start.mjs"), "utf8");
  // No TypeScript loader on the start path.
  expect(start).not.toMatch(/from "tsx"/);
  // A bundled module's import.meta.url is its source file's: the project root, migrations and
  // fonts are found where the sources are, wherever the cache is.
  const chunks = await readdir(path.join(first.dir, "chunks"));
  const shared = await Promise.all(
    chunks
      .filter((name) => name.endsWith(".mjs"))
      .map((name) => readFile(path.join(first.dir, "chunks", name), "utf8")),
  );
  expect([start, ...shared].join("\n")).toContain(
    JSON.stringify(pathToFileURL(path.join(projectRoot, "internal/projectRoot.ts")).href),
  );
  // The indexer's code, for Ponder (indexer/prebuilt/), with its virtual registry.
  for (const entry of ["ponder.config", "ponder.schema", "src/usdcTransfer", "ponder-registry"])
    await expect(
      readFile(path.join(first.dir, "ponder", `${entry}.mjs`), "utf8"),
    ).resolves.toBeTruthy();
});
