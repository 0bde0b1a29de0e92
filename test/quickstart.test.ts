import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rpcRequest } from "../chain/rpc.ts";
import { freePort } from "../internal/freePort.ts";
import { waitFor } from "../internal/process.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { runCli } from "./cli/run.ts";
import { childEnv } from "./helpers/env.ts";
import { privatePorts, type Service, startService, waitForLine } from "./helpers/service.ts";
import { invoiceRequest } from "./invoices/fixtures.ts";

/** Whether any process is left in the group `pgid` leads (signal 0 only asks). */
function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether anything still accepts connections on the port. */
const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** The README's quickstart: the shell blocks after its marker, up to the next section. */
function quickstartBlocks(): string[] {
  const readme = readFileSync(path.join(projectRoot, "README.md"), "utf8");
  const start = readme.indexOf("<!-- quickstart");
  const section = readme.slice(start, readme.indexOf("\n## ", start));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

describe("the README's quickstart, command by command", () => {
  let dir: string;
  let service: Service;
  let ports: Awaited<ReturnType<typeof privatePorts>>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "remit-quickstart-"));
    ports = await privatePorts();
    // Step 1 is `npm start`; the test starts it the same way, on private ports.
    service = startService({ DATA_DIR: path.join(dir, "data"), ...ports.env });
    await waitForLine(service, /healthy in/);
  }, 180_000);
  afterAll(async () => {
    service?.child.kill("SIGINT");
    await new Promise((resolve) => service?.child.once("exit", resolve));
    await rm(dir, { recursive: true, force: true });
  });

  test("start, create, open, receive, pay, see it paid: as written", async () => {
    const [startBlock, rest] = quickstartBlocks();
    expect(startBlock?.trim().split("\n").at(-1)).toBe("npm install && npm start");
    expect(rest).toBeDefined();
    const receiverPort = await freePort();
    // Only the ports and the scratch file differ from what a reader types.
    const script = (rest ?? "")
      .replaceAll("localhost:3000", `localhost:${ports.env.PORT}`)
      .replaceAll("127.0.0.1:4000", `127.0.0.1:${receiverPort}`)
      .replaceAll("./invoice.json", path.join(dir, "invoice.json"))
      .replaceAll("tee invoice.json", `tee ${path.join(dir, "invoice.json")}`);
    let output = "";
    const shell: ChildProcess = spawn("bash", ["-euo", "pipefail", "-c", script], {
      cwd: projectRoot,
      env: childEnv({ ...ports.env, RECEIVER_PORT: String(receiverPort) }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    shell.stdout?.on("data", (chunk) => (output += chunk));
    shell.stderr?.on("data", (chunk) => (output += chunk));
    try {
      const code = await new Promise<number | null>((resolve) => shell.once("exit", resolve));
      expect(code, output).toBe(0);
      // Step 2 printed the created invoice; step 3 its page; step 5 the payment; step 6 the status.
      expect(output).toMatch(/"invoice_number":"INV-0001"/);
      expect(output).toMatch(new RegExp(`http://localhost:${ports.env.PORT}/i/\\w{12}`));
      expect(output).toMatch(/"status": "paid"/);
      expect(output).toMatch(
        /\{"status":"paid","paid_amount":"150\.00","tx_hash":"0x[0-9a-f]{64}"/,
      );
      // Step 4's receiver verified the signed webhook before step 7 let the script end.
      expect(output).toContain("verified invoice.paid INV-0001 150.00 USDC");
      // Nothing the quickstart started is left running: its process group is empty and the
      // receiver's port is free again.
      // The shell's `wait` returns when npx does; tsx's own child may take a moment more to
      // exit on a loaded machine: the group empties by itself, soon.
      await waitFor(
        "the quickstart's processes to exit",
        async () => !processGroupAlive(shell.pid as number),
        {
          timeoutMs: 30_000,
          intervalMs: 50,
        },
      ).catch(() => expect(processGroupAlive(shell.pid as number), output).toBe(false));
      expect(await portAnswers(receiverPort)).toBe(false);
      // And the merchant's email is in the local outbox the quickstart points to: sent by a job
      // of its own, in no order with the status the script printed or with the webhook.
      let outbox = "";
      await waitFor("the merchant's email in the outbox", async () => {
        outbox = await (await fetch(`${ports.apiUrl}/dev/outbox`)).text();
        return /INV-0001 is paid in full/.test(outbox);
      }).catch(() => {});
      expect(outbox).toMatch(/INV-0001 is paid in full/);
    } finally {
      try {
        process.kill(-(shell.pid as number), "SIGTERM");
      } catch {
        // The group has already exited.
      }
    }
  }, 180_000);

  test("remit dev pay --gasless pays with a signature alone: the payer spends no ETH", async () => {
    const created = (await (
      await fetch(`${ports.apiUrl}/api/invoices`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(
          invoiceRequest({ line_items: [{ description: "x", quantity: 1, unit_price: "20.00" }] }),
        ),
      })
    ).json()) as { invoice_url: string };
    const rpc = `http://127.0.0.1:${ports.env.ANVIL_PORT}`;
    const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"; // development account 1
    const ethBefore = await rpcRequest<string>(rpc, "eth_getBalance", [payer, "latest"]);
    const paid = await runCli([
      "dev",
      "pay",
      created.invoice_url,
      // Typed as a person types it: a whole number of USDC.
      "20",
      "--gasless",
      "--from",
      "1",
      "--rpc-url",
      rpc,
    ]);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({
      status: "paid",
      from: payer,
      gasless: true,
      amount: "20.00",
    });
    expect(await rpcRequest<string>(rpc, "eth_getBalance", [payer, "latest"])).toBe(ethBefore);
  });
});
