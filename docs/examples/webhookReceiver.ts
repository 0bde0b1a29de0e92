// A webhook receiver that trusts nothing it cannot verify: run it with the invoice's
// webhook_secret, `WEBHOOK_SECRET=whsec_… npx tsx docs/examples/webhookReceiver.ts`.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const secret = process.env.WEBHOOK_SECRET ?? "";
const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");

/** Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, timestamp signed. */
function verified(id: string, timestamp: string, body: string, signatures: string): boolean {
  // A signed timestamp older than 5 minutes is a replay, whatever its signature.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((candidate) => {
    const given = Buffer.from(candidate.replace(/^v1,/, ""), "base64");
    // Constant time: a byte-by-byte comparison would leak how much of a forgery was right.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    const header = (name: string) => String(request.headers[name] ?? "");
    if (
      !verified(
        header("webhook-id"),
        header("webhook-timestamp"),
        body,
        header("webhook-signature"),
      )
    ) {
      console.log("refused: bad signature");
      return response.writeHead(401).end();
    }
    const event = JSON.parse(body) as { type: string; invoice_number: string; paid_amount: string };
    console.log(`verified ${event.type} ${event.invoice_number} ${event.paid_amount} USDC`);
    response.writeHead(200).end();
  });
}).listen(Number(process.env.RECEIVER_PORT ?? 4000), "127.0.0.1");
