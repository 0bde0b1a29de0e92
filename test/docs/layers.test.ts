import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { projectRoot } from "../../internal/projectRoot.ts";

/**
 * The layers of docs/architecture.md, bottom first: a folder imports only from folders of a
 * lower layer. The tools around the service (top) may import anything, and nothing imports them.
 */
const LAYERS: string[][] = [
  ["internal", "abis"],
  ["domain"],
  ["email", "pdf", "webhooks", "keys", "chain", "db"],
  ["api", "web", "indexer"],
  ["server", "worker", "src", "(root)"],
  ["platform"],
];
const TOOLS = ["cli", "bench", "faults", "scripts", "test"];

const rankOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)));
const SKIP = new Set(["node_modules", ".git", ".data", ".ponder", "test-artifacts", "docs"]);
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (SKIP.has(name) || name.startsWith(".")) return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

const folderOf = (file: string) => {
  const [top = ""] = path.relative(projectRoot, file).split(path.sep);
  return /\.(ts|tsx|mjs|json)$/.test(top) ? "(root)" : top;
};

/** Every import between two different top-level folders, as "from -> to  (file)". */
function crossFolderImports(): { from: string; to: string; file: string }[] {
  return sourceFiles(projectRoot).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(IMPORT)].flatMap((match) => {
      const target = path.resolve(path.dirname(file), match[1] ?? "");
      const from = folderOf(file);
      const to = folderOf(target);
      return from === to ? [] : [{ from, to, file: path.relative(projectRoot, file) }];
    }),
  );
}

describe("imports between top-level folders (docs/architecture.md)", () => {
  const edges = crossFolderImports();

  test("the scan sees the imports it must judge", () => {
    // A scan that found nothing would pass everything below.
    expect(edges.some((e) => e.from === "server" && e.to === "api")).toBe(true);
    expect(edges.some((e) => e.from === "worker" && e.to === "db")).toBe(true);
  });

  test("every folder is placed in a layer or among the tools", () => {
    const unknown = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter(
      (f) => !rankOf.has(f) && !TOOLS.includes(f) && f !== "package.json",
    );
    expect(unknown).toEqual([]);
  });

  test("no folder imports one of its own layer or a higher one, and none imports the tools", () => {
    const wrong = edges.filter(({ from, to }) => {
      if (TOOLS.includes(from)) return false;
      const fromRank = rankOf.get(from);
      const toRank = rankOf.get(to);
      return fromRank === undefined || toRank === undefined || toRank >= fromRank;
    });
    expect(wrong.map((e) => `${e.from} -> ${e.to} (${e.file})`)).toEqual([]);
  });

  test("the tools import one another without a circle", () => {
    const toolEdges = edges.filter((e) => TOOLS.includes(e.from) && TOOLS.includes(e.to));
    const next = (f: string) => toolEdges.filter((e) => e.from === f).map((e) => e.to);
    const cycle = (start: string): boolean => {
      const seen = new Set<string>();
      const walk = (f: string): boolean =>
        next(f).some((n) => {
          if (n === start) return true;
          if (seen.has(n)) return false;
          seen.add(n);
          return walk(n);
        });
      return walk(start);
    };
    expect(TOOLS.filter(cycle)).toEqual([]);
  });
});
