import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../../../internal/projectRoot.ts";
import { claimedMerchant, type Merchant } from "../../../test/accounts/accounts.ts";
import { childEnv } from "../../../test/helpers/env.ts";
import { startStack, type TestStack } from "../../../test/helpers/stack.ts";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const consumer = fileURLToPath(new URL("fixtures/consumer.ts", import.meta.url));

/** The TypeScript blocks of the READMEs that import the package: each must compile against it. */
async function readmeExamples(): Promise<string[]> {
  const readmes = [path.join(projectRoot, "README.md"), path.join(packageDir, "README.md")];
  const blocks = await Promise.all(
    readmes.map(async (file) =>
      [...(await readFile(file, "utf8")).matchAll(/```ts\n([\s\S]*?)```/g)]
        .map((m) => m[1] ?? "")
        .filter((code) => code.includes('from "@remit/client"')),
    ),
  );
  return blocks.flat();
}

/**
 * The package as an integrator gets it: `npm pack` (its prepack compiles it), installed from the
 * tarball into a scratch project with no registry, and used there against the running stack.
 */
describe("the @remit/client tarball", () => {
  let stack: TestStack;
  let merchant: Merchant;
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "remit-client-scratch-"));
    const [started] = await Promise.all([
      startStack({ worker: true }),
      (async () => {
        await run("npm", ["pack", "--pack-destination", scratch], {
          cwd: packageDir,
          env: childEnv(),
        });
        const [tarball] = (await readdir(scratch)).filter((f) => f.endsWith(".tgz"));
        if (!tarball) throw new Error("npm pack wrote no tarball");
        await writeFile(
          path.join(scratch, "package.json"),
          JSON.stringify({ name: "scratch", private: true, type: "module" }),
        );
        // Offline: the package has no dependencies, so nothing may come from a registry.
        await run("npm", ["install", "--offline", "--no-audit", "--no-fund", `./${tarball}`], {
          cwd: scratch,
          env: childEnv(),
        });
      })(),
    ]);
    stack = started;
    merchant = await claimedMerchant(stack.db);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  test("holds compiled JavaScript and declarations only", async () => {
    const { stdout } = await run("tar", ["-tzf", await tarballPath(scratch)]);
    const files = stdout.trim().split("\n").sort();
    expect(files).toContain("package/dist/index.js");
    expect(files).toContain("package/dist/index.d.ts");
    expect(files).toContain("package/dist/schema.d.ts");
    expect(files).toContain("package/README.md");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(files.some((f) => f.includes("/test/"))).toBe(false);
  });

  test("a scratch project and the READMEs' examples typecheck against it; against the running stack, creates, gets, pages through invoices and verifies a real webhook delivery", async () => {
    await copyFile(consumer, path.join(scratch, "consumer.ts"));
    const examples = await readmeExamples();
    // The root README's typed quickstart, the package's quickstart and its webhook receiver.
    expect(examples.length).toBeGreaterThanOrEqual(3);
    const exampleFiles = examples.map((_, i) => `readme-${i}.ts`);
    await Promise.all(
      examples.map((code, i) => writeFile(path.join(scratch, `readme-${i}.ts`), code)),
    );
    await writeFile(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          allowImportingTsExtensions: true,
          types: ["node"],
          typeRoots: [path.join(projectRoot, "node_modules/@types")],
        },
        files: ["consumer.ts", ...exampleFiles],
      }),
    );
    await run(
      process.execPath,
      [path.join(projectRoot, "node_modules/typescript/bin/tsc"), "-p", "."],
      {
        cwd: scratch,
      },
    );

    const { stdout } = await run(process.execPath, ["consumer.ts"], {
      cwd: scratch,
      env: childEnv({
        REMIT_URL: stack.api.url,
        REMIT_API_KEY: merchant.key,
        MERCHANT_EMAIL: merchant.email,
      }),
    });
    const result = JSON.parse(stdout) as {
      created: string[];
      fetched: { invoice_id: string; total_amount: string; status: string };
      listed: string[];
      notFound: { status: number; code: string };
      sent: string;
      event: Record<string, unknown>;
    };
    expect(result.created).toEqual(["INV-0001", "INV-0002"]);
    expect(result.fetched).toMatchObject({ total_amount: "0.125", status: "draft" });
    // Newest first, one page each.
    expect(result.listed).toEqual(["INV-0002", "INV-0001"]);
    expect(result.notFound).toEqual({ status: 404, code: "not_found" });
    expect(result.event).toMatchObject({ event_id: result.sent, type: "webhook.test" });

    // What the script made is on the stack.
    const invoice = await stack.request(`/api/invoices/${result.fetched.invoice_id}`, {
      headers: { authorization: `Bearer ${merchant.key}` },
    });
    expect(invoice.status).toBe(200);
  });
});

const tarballPath = async (dir: string) => {
  const [tarball] = (await readdir(dir)).filter((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("no tarball");
  return path.join(dir, tarball);
};
