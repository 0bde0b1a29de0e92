import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fastResolve } from "./fastResolve.mjs";

type Resolved = { url: string; format?: string; shortCircuit?: boolean };

/** Node's own resolution, as the hook's `nextResolve`: marks what reached it. */
const node = (specifier: string): Resolved => ({ url: `node:${specifier}` });

describe("fastResolve", () => {
  let root: string;
  const file = (relative: string) => pathToFileURL(path.join(root, relative)).href;
  const resolve = (specifier: string, parent: string, attributes: Record<string, string> = {}) =>
    fastResolve(
      specifier,
      { parentURL: file(parent), conditions: ["node", "import"], importAttributes: attributes },
      node,
    ) as Resolved;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "fast-resolve-"));
    const files: Record<string, string> = {
      "node_modules/esm/package.json": JSON.stringify({ name: "esm", type: "module" }),
      "node_modules/esm/dist/deep/a.js": "",
      "node_modules/cjs/package.json": JSON.stringify({ name: "cjs", type: "commonjs" }),
      "node_modules/cjs/lib/b.js": "",
      "node_modules/typeless/package.json": JSON.stringify({ name: "typeless" }),
      "node_modules/typeless/c.js": "",
      "node_modules/typeless/x.mjs": "",
      "outside.js": "",
      "node_modules/nested/package.json": JSON.stringify({ name: "nested" }),
      "node_modules/nested/_esm/package.json": JSON.stringify({ type: "module" }),
      "node_modules/nested/_esm/d.js": "",
      "src/e.js": "",
    };
    for (const [relative, contents] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), contents);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  test("a relative .js import takes the nearest package.json's type, looked up the tree", () => {
    expect(resolve("./a.js", "node_modules/esm/dist/deep/index.js")).toEqual({
      url: file("node_modules/esm/dist/deep/a.js"),
      format: "module",
      shortCircuit: true,
    });
    expect(resolve("../lib/b.js", "node_modules/cjs/src/index.js")).toMatchObject({
      url: file("node_modules/cjs/lib/b.js"),
      format: "commonjs",
    });
    // The package.json nearest the file decides, not the package's own.
    expect(resolve("./_esm/d.js", "node_modules/nested/index.js").format).toBe("module");
    expect(resolve("./x.mjs", "node_modules/typeless/index.js").format).toBe("module");
  });

  test("what is not certain is left to Node", () => {
    // A typeless scope: Node may detect ES module syntax in the file.
    expect(resolve("./c.js", "node_modules/typeless/index.js").url).toBe("node:./c.js");
    // Packages, extensionless and directory specifiers, JSON, queries, code outside node_modules.
    expect(resolve("viem", "node_modules/esm/dist/a.js").url).toBe("node:viem");
    expect(resolve("./lib/b", "node_modules/cjs/index.js").url).toBe("node:./lib/b");
    expect(resolve("./data.json", "node_modules/esm/a.js", { type: "json" }).url).toBe(
      "node:./data.json",
    );
    expect(resolve("./a.js?x=1", "node_modules/esm/dist/deep/b.js").url).toBe("node:./a.js?x=1");
    expect(resolve("./e.js", "src/index.js").url).toBe("node:./e.js");
    // A file that is not there: Node reports it, as it would.
    expect(resolve("./gone.js", "node_modules/esm/dist/deep/a.js").url).toBe("node:./gone.js");
    // Out of node_modules to where no package.json is found up to the root.
    expect(resolve("../../outside.js", "node_modules/esm/index.js").url).toBe(
      "node:../../outside.js",
    );
  });
});
