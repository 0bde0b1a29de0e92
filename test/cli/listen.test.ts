import { spawn } from "node:child_process";
import http from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signBody } from "../../domain/webhookSignature.ts";
import { freePort } from "../../internal/freePort.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { childEnv } from "../helpers/env.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceApi, priced, until } from "../refunds/helpers.ts";
import { remitBin } from "./run.ts";

type Json = Record<string, unknown>;

/**
 * The API behind a fixed address that can be re-pointed: a restarted API listens on a new
 * port, and `remit listen` must find it again at the address it was given. While nothing is
 * behind it, it answers 502 as a load balancer would.
 */
async function movableProxy(initial: string) {
  let upstream: string | null = initial;
  const port = await freePort();
  const server = http.createServer(async (request, response) => {
    try {
      if (!upstream) throw new Error("no upstream");
      const answer = await fetch(`${upstream}${request.url}`, {
        method: request.method ?? "GET",
        headers: { authorization: request.headers.authorization ?? "" },
      });
      response.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "",
      });
      response.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    point: (to: string | null) => {
      upstream = to;
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("remit listen", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let acme: Merchant;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let proxy: Awaited<ReturnType<typeof movableProxy>>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true });
    acme = await claimedMerchant(stack.db);
    proxy = await movableProxy(stack.api.url);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await proxy?.stop();
    await chain.revert();
  });

  test("forwards a real payment's event, signed with the run's secret, and resumes after the API restarts", async () => {
    const api = invoiceApi(stack, bearer(acme.key));
    const first = await api.create({ merchant_email: acme.email, ...priced("1.00") });
    const second = await api.create({ merchant_email: acme.email, ...priced("2.00") });

    const child = spawn(
      process.execPath,
      [remitBin, "listen", "--forward-to", receiver.url, "--events", "invoice.paid"],
      {
        env: childEnv({ NO_COLOR: "1", REMIT_API_URL: proxy.url, REMIT_API_KEY: acme.key }),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    let restarted: Awaited<ReturnType<TestStack["startApi"]>> | undefined;
    try {
      await until("listen ready", async () => stderr.includes("ready: waiting for events"));
      const secret = stdout.split("\n")[0] ?? "";
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      const verifier = new Webhook(secret);

      /** The forwarded invoice.paid of `invoiceId`, verified as a receiver would. */
      const delivered = (invoiceId: string) =>
        until(`invoice.paid of ${invoiceId} forwarded`, async () =>
          receiver.received.find((r) => (JSON.parse(r.body) as Json).invoice_id === invoiceId),
        ).then((hook) => {
          const payload = verifier.verify(
            hook.body,
            hook.headers as Record<string, string>,
          ) as Json;
          expect(hook.headers["x-service-signature"]).toBe(signBody(hook.body, secret));
          expect(payload).toMatchObject({ type: "invoice.paid", status: "paid" });
          return payload;
        });

      await chain.payUsdc(devAccount(1), first.deposit_address, 1_000_000n);
      const paid = await delivered(first.invoice_id);
      await until("the status line", async () =>
        new RegExp(`invoice\\.paid\\s+${paid.event_id}\\s+→ 200`).test(stdout),
      );

      // The API goes away; the payment that arrives meanwhile is still recorded as an event.
      await stack.api.stop();
      proxy.point(null);
      await chain.payUsdc(devAccount(1), second.deposit_address, 2_000_000n);
      await until(
        "the second event recorded",
        async () =>
          (
            await stack.db
              .selectFrom("app.payment_events")
              .select("id")
              .where("merchant_id", "=", acme.merchantId)
              .where("type", "=", "invoice.paid")
              .execute()
          ).length === 2,
      );
      await until("listen notices", async () => stderr.includes("retrying every second"));
      restarted = await stack.startApi({ keepManagedWallets: false });
      proxy.point(restarted.url);
      await delivered(second.invoice_id);
      expect(stderr).toContain("reconnected to the Remit API");
      // Each event once: nothing before the run, nothing twice.
      expect(receiver.received.map((r) => (JSON.parse(r.body) as Json).invoice_id)).toEqual([
        first.invoice_id,
        second.invoice_id,
      ]);
    } finally {
      child.kill("SIGTERM");
      await restarted?.stop();
    }
  });
});
