#!/usr/bin/env node
// The `remit` command, from the checkout as it is (`npx remit …`) and from a global install
// (`npm install -g .`). It runs cli/main.ts bundled to plain JavaScript (cli/build.mjs), built
// by the first command after a clone or a change and reused by every other: no TypeScript is
// compiled on a command's way. Where the bundle cannot be written (a read-only install), the
// TypeScript runs through tsx, as before, only slower to start.
import module from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { cliBundle } from "./build.mjs";

// V8's compiled code of the bundle, reused by the next command (as `npm start` does).
module.enableCompileCache?.(
  process.env.NODE_COMPILE_CACHE ?? path.join(tmpdir(), "node-compile-cache"),
);

let entry;
try {
  entry = await cliBundle();
} catch (error) {
  process.stderr.write(
    `could not bundle the CLI (${error instanceof Error ? error.message : error}); running its TypeScript through tsx\n`,
  );
}
if (entry) await import(pathToFileURL(entry).href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./main.ts");
}
