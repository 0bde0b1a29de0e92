// A webhook receiver that trusts nothing it cannot verify: run it with the invoice's
// webhook_secret, `WEBHOOK_SECRET=whsec_… npx tsx docs/examples/webhookReceiver.ts`, or with a
// webhook endpoint's secret to receive every invoice's and link's events of the account. With
// STOP_AFTER=<event type> (the quickstart's invoice.paid) it exits once it has handled one, so
// a receiver started in the background does not outlive the walkthrough.
import { createServer } from "node:http";
import { TOLERANCE_SECONDS, verifyWebhook } from "./verifyWebhook.ts";

const secret = process.env.WEBHOOK_SECRET ?? "";
const stopAfter = process.env.STOP_AFTER;
/** Remit's payloads are under 2 kB; anything much larger is not ours. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Event ids handled within the signature's tolerance, with when: a replay inside the window
 * (same id, same signature) is answered 200 and not handled twice. Remit also redelivers an
 * event under the same id (at least once), so the same rule dedupes its retries.
 */
const handled = new Map<string, number>();
const forgetOld = (now: number) => {
  for (const [id, at] of handled) if (now - at > 2 * TOLERANCE_SECONDS) handled.delete(id);
};

createServer((request, response) => {
  // Refused unread: the answer closes the connection, so the rest of the body never arrives.
  const tooLarge = () => {
    if (!response.headersSent) response.writeHead(413, { Connection: "close" }).end();
  };
  if (Number(request.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  request.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      request.pause();
      return tooLarge();
    }
    chunks.push(chunk);
  });
  request.on("end", () => {
    if (size > MAX_BODY_BYTES) return;
    // The raw bytes, joined before decoding: a character split across chunks stays whole.
    const body = Buffer.concat(chunks);
    const header = (name: string) => request.headers[name] as string | undefined;
    const delivery = {
      id: header("webhook-id"),
      timestamp: header("webhook-timestamp"),
      signatures: header("webhook-signature"),
      body,
    };
    if (!verifyWebhook(delivery, secret)) {
      console.log("refused: bad signature");
      return response.writeHead(401).end();
    }
    const now = Date.now() / 1000;
    forgetOld(now);
    const id = delivery.id as string;
    if (handled.has(id)) {
      console.log(`duplicate ${id}: already handled`);
      return response.writeHead(200).end();
    }
    handled.set(id, now);
    const event = JSON.parse(body.toString("utf8")) as {
      type: string;
      invoice_number?: string;
      paid_amount?: string;
      /** A payment link's event (an endpoint's secret receives those too). */
      slug?: string;
      amount_usdc?: string;
    };
    const what = event.invoice_number ?? event.slug;
    const amount = event.paid_amount ?? event.amount_usdc;
    // e.g. "verified invoice.paid INV-0001 150.00 USDC"; a test event is its type alone.
    console.log(
      `verified ${event.type}${what ? ` ${what}` : ""}${amount ? ` ${amount} USDC` : ""}`,
    );
    if (event.type !== stopAfter) return response.writeHead(200).end();
    // Answered first, so the delivery counts as received and is not retried.
    response.writeHead(200, { Connection: "close" }).end(() => process.exit(0));
  });
}).listen(Number(process.env.RECEIVER_PORT ?? 4000), "127.0.0.1");
