import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The e-invoice rule tests alone, without the repository's globalSetup (no database, no anvil):
//   npx vitest run --config test/einvoice/vitest.config.ts
// The whole suite (vitest.config.ts at the root) runs them too.
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  test: {
    include: ["test/einvoice/**/*.test.ts"],
    maxWorkers: 1,
    // A validation takes ~0.3–2 s in SaxonJS on this kind of machine; a bound, not a figure.
    testTimeout: 120_000,
  },
});
