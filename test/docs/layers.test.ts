import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { projectRoot } from "../../internal/projectRoot.ts";

/**
 * The layers of docs/architecture.md, bottom first: a folder imports only from folders of a
 * lower layer. domain ← db ← app (the use cases and read models) ← the adapters (api, web) ←
 * the composition root (server, and the worker beside it). The tools around the service (top)
 * may import anything, and nothing imports them.
 */
const LAYERS: string[][] = [
  ["internal", "abis"],
  ["domain"],
  ["email", "pdf", "einvoice", "webhooks", "keys", "chain", "db"],
  ["app"],
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

/**
 * Import circles allowed, each as its files (sorted): none. The list can only shrink: an entry
 * whose circle is gone fails the test until it is removed.
 */
const KNOWN_CYCLES: string[][] = [];

/** Every relative import between source files (tests excluded), file -> files it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(projectRoot);
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      path.relative(projectRoot, file),
      [...readFileSync(file, "utf8").matchAll(IMPORT)]
        .map((match) => path.resolve(path.dirname(file), match[1] ?? ""))
        .filter((target) => known.has(target))
        .map((target) => path.relative(projectRoot, target)),
    ]),
  );
}

/**
 * The graph's circles: its strongly connected components of more than one file (or a file that
 * imports itself), each as its sorted files and one circle through them, "a -> b -> a".
 */
function importCycles(graph: Map<string, string[]>): { files: string[]; path: string }[] {
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return components.map((component) => {
    const files = [...component].sort();
    return { files, path: circleThrough(graph, new Set(files), files[0] ?? "") };
  });
}

/** One circle from `start` back to it inside `within`, found breadth first (the shortest). */
function circleThrough(graph: Map<string, string[]>, within: Set<string>, start: string): string {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() ?? "";
    for (const next of graph.get(file) ?? []) {
      if (!within.has(next)) continue;
      if (next === start) {
        const circle = [start];
        for (let at: string | undefined = file; at && at !== start; at = previous.get(at)) {
          circle.splice(1, 0, at);
        }
        return [...circle, start].join(" -> ");
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return start;
}

/**
 * The api/ files that still read db/queries themselves, each with why. The list can only shrink:
 * an entry that no longer imports db/queries fails the test until it is removed.
 */
const API_DB_EXCEPTIONS: Record<string, string> = {
  // Operational, not the application: the service's own health (database ping, heartbeats,
  // indexer head, job backlog, relayer gas, failing sweeps), no merchant and no actor.
  "api/health.ts": "operational: /health",
  // The Prometheus counters of the same kind, for the ops listener.
  "api/metrics/serviceMetrics.ts": "operational: /metrics",
};

/**
 * The worker's tasks that still read or write db/queries themselves, each with why. A task is an
 * adapter like a route: it parses its payload, builds its dependencies, calls one use case of
 * app/ and maps its outcome to graphile-worker's retry or give-up. The list can only shrink: an
 * entry that no longer imports db/queries fails the test until it is removed.
 */
const WORKER_TASK_DB_EXCEPTIONS: Record<string, string> = {
  // None: every task calls app/ (issue 43 moved them all).
};

describe("the application layer (app/) between the adapters and db/", () => {
  const graph = importGraph();
  const importsOf = (folder: string, target: (to: string) => boolean) =>
    [...graph.entries()].flatMap(([file, targets]) =>
      file.startsWith(`${folder}/`) ? targets.filter(target).map((to) => `${file} -> ${to}`) : [],
    );

  test("the scan sees app/ between them", () => {
    // Nothing found would pass everything below.
    expect(graph.get("api/invoices/create.ts")).toContain("app/invoices/createInvoice.ts");
    expect(graph.get("app/invoices/createInvoice.ts")).toContain("db/queries/invoices.ts");
    expect(importsOf("web", (to) => to.startsWith("app/")).length).toBeGreaterThan(0);
  });

  test("web/ and server/ never reach db/queries: they call app/'s use cases and read models", () => {
    const direct = (to: string) => to.startsWith("db/queries/");
    expect([...importsOf("web", direct), ...importsOf("server", direct)]).toEqual([]);
  });

  test("api/ never reaches db/queries (but its listed exceptions): a route parses, calls app/, maps the refusal", () => {
    const direct = (to: string) => to.startsWith("db/queries/");
    const reaching = importsOf("api", direct).filter(
      (edge) => !Object.hasOwn(API_DB_EXCEPTIONS, edge.split(" -> ")[0] ?? ""),
    );
    expect(reaching).toEqual([]);
  });

  test("every exception of API_DB_EXCEPTIONS still reads db/queries (remove the ones that no longer do)", () => {
    const stale = Object.keys(API_DB_EXCEPTIONS).filter(
      (file) => !(graph.get(file) ?? []).some((to) => to.startsWith("db/queries/")),
    );
    expect(stale).toEqual([]);
  });

  test("app/ never imports an adapter or the composition root", () => {
    const adapter = (to: string) => /^(api|web|server|cli|worker)\//.test(to);
    expect(importsOf("app", adapter)).toEqual([]);
  });
  test("worker/tasks/ never reach db/queries (but the listed exceptions): a task parses, calls app/, maps the outcome", () => {
    const direct = (to: string) => to.startsWith("db/queries/");
    const reaching = importsOf("worker/tasks", direct).filter(
      (edge) => !Object.hasOwn(WORKER_TASK_DB_EXCEPTIONS, edge.split(" -> ")[0] ?? ""),
    );
    expect(reaching).toEqual([]);
    // The scan sees the tasks that were moved calling app/.
    expect(graph.get("worker/tasks/reconcile_deposit.ts")).toContain(
      "app/payments/reconcileDeposit.ts",
    );
  });

  test("every exception of WORKER_TASK_DB_EXCEPTIONS still reads db/queries (remove the ones that no longer do)", () => {
    const stale = Object.keys(WORKER_TASK_DB_EXCEPTIONS).filter(
      (file) => !(graph.get(file) ?? []).some((to) => to.startsWith("db/queries/")),
    );
    expect(stale).toEqual([]);
  });

  test("the worker never imports api/: it calls app/ as the routes do", () => {
    expect(importsOf("worker", (to) => to.startsWith("api/"))).toEqual([]);
  });

  test("app/ imports nothing of Hono: a refusal has a kind, the HTTP status is api/errors.ts's", () => {
    // @hono/zod-openapi is zod with OpenAPI metadata (the schemas' documentation), no transport.
    const hono = /(?:from|import)\s*\(?\s*["']hono(?:\/[^"']*)?["']/;
    const importing = [...graph.keys()].filter(
      (file) =>
        file.startsWith("app/") && hono.test(readFileSync(path.join(projectRoot, file), "utf8")),
    );
    expect(importing).toEqual([]);
  });
});

describe("every webhook and event-log payload is built from the one event schema", () => {
  const graph = importGraph();
  const calling = (name: string) =>
    [...graph.keys()].filter(
      (file) =>
        !file.startsWith("db/queries/") &&
        readFileSync(path.join(projectRoot, file), "utf8").includes(`${name}(`),
    );

  test("an event is recorded only through app/events/recordEvent.ts, which checks it against the schema", () => {
    expect(calling("recordPaymentEvent")).toEqual(["app/events/recordEvent.ts"]);
    expect(graph.get("app/events/recordEvent.ts")).toContain("app/events/paymentEvent.ts");
    expect(calling("recordEvent").length).toBeGreaterThan(2);
  });

  test("an endpoint's test event is parsed by the schema's test variant", () => {
    const callers = calling("insertTestEvent");
    expect(callers.length).toBeGreaterThan(0);
    for (const file of callers) expect(graph.get(file)).toContain("app/events/paymentEvent.ts");
  });

  test("the event log's OpenAPI schema is that schema", () => {
    expect(graph.get("api/events/routes.ts")).toContain("app/events/paymentEvent.ts");
  });
});

describe("imports between files", () => {
  const graph = importGraph();
  const cycles = importCycles(graph);
  const key = (files: string[]) => files.join(" + ");
  const known = new Set(KNOWN_CYCLES.map((files) => key([...files].sort())));

  test("the scan sees the imports it must judge, and finds a circle when there is one", () => {
    expect(graph.get("server/app.ts")).toContain("api/deps.ts");
    const circle = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts", "d.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", []],
    ]);
    expect(importCycles(circle)).toEqual([
      { files: ["a.ts", "b.ts", "c.ts"], path: "a.ts -> b.ts -> c.ts -> a.ts" },
    ]);
  });

  test("no file imports itself through others (no import circle)", () => {
    const found = cycles.filter((cycle) => !known.has(key(cycle.files))).map((c) => c.path);
    expect(found, `import circles:\n${found.join("\n")}`).toEqual([]);
  });

  test("every circle of KNOWN_CYCLES still exists (remove the ones that are gone)", () => {
    const present = new Set(cycles.map((cycle) => key(cycle.files)));
    expect([...known].filter((cycle) => !present.has(cycle))).toEqual([]);
  });
});
