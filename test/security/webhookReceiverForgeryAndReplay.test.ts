import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { verifyServiceSignature, verifyWebhook } from "../../docs/examples/verifyWebhook.ts";
import { signBody, standardWebhookHeaders } from "../../domain/webhookSignature.ts";
import { freePort } from "../../internal/freePort.ts";
import { stopProcess, waitFor } from "../../internal/process.ts";
import { projectRoot } from "../../internal/projectRoot.ts";
import { postOversized } from "../helpers/oversizedPost.ts";

/**
 * The attacks a webhook receiver faces, tried on the receiver the docs give (docs/examples):
 * a forged or re-keyed signature, a tampered body, a captured delivery replayed later (its
 * timestamp is signed), or replayed at once (the event id is deduped), a malformed timestamp,
 * a body too large to be ours. Signatures are made by the code the worker signs deliveries with.
 */
const secret = `whsec_${randomBytes(32).toString("base64")}`;
const event = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    event_id: `evt-${randomBytes(6).toString("hex")}`,
    type: "invoice.paid",
    invoice_number: "INV-0042",
    status: "paid",
    paid_amount: "150.00",
    ...overrides,
  });
const now = () => Math.floor(Date.now() / 1000);
/** The headers Remit's worker sends with `body` (app/webhooks/deliverWebhook.ts). */
const signed = (body: string, at = now(), key = secret) => ({
  ...standardWebhookHeaders((JSON.parse(body) as { event_id: string }).event_id, body, key, at),
  "X-Service-Signature": signBody(body, key),
});

describe("verifyWebhook, the function receivers copy", () => {
  const delivery = (body: string, headers: Record<string, string>) => ({
    id: headers["webhook-id"],
    timestamp: headers["webhook-timestamp"],
    signatures: headers["webhook-signature"],
    body: Buffer.from(body),
  });

  test("accepts Remit's deliveries, and refuses forgeries, tampering and stale replays", () => {
    const body = event();
    expect(verifyWebhook(delivery(body, signed(body)), secret)).toBe(true);
    // Several signatures (a key rotation): one valid is enough.
    const headers = signed(body);
    const rotated = { ...headers, "webhook-signature": `v1,AAAA ${headers["webhook-signature"]}` };
    expect(verifyWebhook(delivery(body, rotated), secret)).toBe(true);

    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect(verifyWebhook(delivery(body, signed(body, now(), other)), secret)).toBe(false);
    expect(verifyWebhook(delivery(body.replace("150.00", "1500.00"), signed(body)), secret)).toBe(
      false,
    );
    // A captured delivery, replayed ten minutes later: its signed timestamp gives it away.
    expect(verifyWebhook(delivery(body, signed(body, now() - 600)), secret)).toBe(false);
    expect(verifyWebhook(delivery(body, signed(body, now() + 600)), secret)).toBe(false);
    // The old timestamp cannot be swapped for a fresh one: it is signed.
    const stale = signed(body, now() - 600);
    expect(
      verifyWebhook(delivery(body, { ...stale, "webhook-timestamp": String(now()) }), secret),
    ).toBe(false);
    // A timestamp that is not plain digits (signed as written, compared as a number).
    const odd = signed(body, now());
    for (const timestamp of ["", "abc", `${now()}.0`, ` ${now()}`])
      expect(
        verifyWebhook(delivery(body, { ...odd, "webhook-timestamp": timestamp }), secret),
      ).toBe(false);
    // A signature cut short, or of another version.
    const sig = odd["webhook-signature"];
    expect(
      verifyWebhook(delivery(body, { ...odd, "webhook-signature": sig.slice(0, -4) }), secret),
    ).toBe(false);
    expect(
      verifyWebhook(
        delivery(body, { ...odd, "webhook-signature": sig.replace("v1,", "v2,") }),
        secret,
      ),
    ).toBe(false);
  });

  test("the spec's X-Service-Signature verifies the body, and only it", () => {
    const body = event();
    const header = signed(body)["X-Service-Signature"];
    expect(verifyServiceSignature(Buffer.from(body), header, secret)).toBe(true);
    expect(verifyServiceSignature(Buffer.from(`${body} `), header, secret)).toBe(false);
    expect(verifyServiceSignature(Buffer.from(body), header.slice(0, -2), secret)).toBe(false);
    expect(verifyServiceSignature(Buffer.from(body), undefined, secret)).toBe(false);
  });

  test("compares signatures in constant time", async () => {
    // Timing cannot be measured reliably in a test; the code path can be read: every
    // signature comparison goes through crypto.timingSafeEqual, none through ==.
    const source = await readFile(path.join(projectRoot, "docs/examples/verifyWebhook.ts"), "utf8");
    const code = source.replace(/\/\/.*$/gm, "");
    expect(code.match(/timingSafeEqual\(/g)?.length).toBe(2);
    // (Their lengths may be compared: a length is no secret.)
    const buffer = String.raw`\b(?:given|expected)\b(?!\.length)`;
    expect(code).not.toMatch(new RegExp(`${buffer}\\s*[!=]==?|[!=]==?\\s*${buffer}`));
    expect(code).not.toMatch(/\.equals\(|\.compare\(|localeCompare/);
  });
});

describe("the example receiver (docs/examples/webhookReceiver.ts)", () => {
  let receiver: ChildProcess;
  let url: string;
  let output = "";
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/hooks`;
    receiver = spawn(
      process.execPath,
      ["--import", "tsx", path.join(projectRoot, "docs/examples/webhookReceiver.ts")],
      {
        env: { ...process.env, WEBHOOK_SECRET: secret, RECEIVER_PORT: String(port) },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    receiver.stdout?.on("data", (chunk) => (output += chunk));
    receiver.stderr?.on("data", (chunk) => (output += chunk));
    await waitFor("the receiver to listen", () =>
      fetch(url, { method: "POST" }).then(
        () => true,
        () => false,
      ),
    );
  });
  afterAll(async () => {
    if (receiver) await stopProcess(receiver, "SIGTERM", 5_000);
  });

  /** Posts `body` in the given pieces (bytes), as a network may deliver it. */
  const post = (pieces: Buffer[], headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const request = http.request(url, { method: "POST", headers, agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
      for (const piece of pieces) request.write(piece);
      request.end();
    });
  const handled = (invoiceNumber: string) =>
    output.split("\n").filter((line) => line.startsWith(`verified invoice.paid ${invoiceNumber} `))
      .length;

  test("handles a delivery once, however often it is replayed within the window", async () => {
    const body = event({ invoice_number: "INV-0101" });
    const headers = signed(body);
    expect(await post([Buffer.from(body)], headers)).toBe(200);
    await waitFor("the event handled", async () => handled("INV-0101") === 1);
    // The same delivery, captured and sent again at once: answered, not handled twice.
    expect(await post([Buffer.from(body)], headers)).toBe(200);
    expect(await post([Buffer.from(body)], signed(body))).toBe(200);
    await waitFor("the duplicates noticed", async () => output.split("duplicate").length === 3);
    expect(handled("INV-0101")).toBe(1);
  });

  test("refuses forged, tampered and stale deliveries", async () => {
    const body = event({ invoice_number: "INV-0102" });
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect(await post([Buffer.from(body)], signed(body, now(), other))).toBe(401);
    expect(await post([Buffer.from(body.replace("150.00", "9150.00"))], signed(body))).toBe(401);
    expect(await post([Buffer.from(body)], signed(body, now() - 600))).toBe(401);
    expect(await post([Buffer.from(body)], {})).toBe(401);
    expect(handled("INV-0102")).toBe(0);
  });

  test("verifies the bytes received, whatever the chunks: a character split across two", async () => {
    const body = event({ invoice_number: "INV-0103", note: "Zürich — 東京" });
    const bytes = Buffer.from(body);
    const split = bytes.indexOf(Buffer.from("東")) + 1;
    expect(await post([bytes.subarray(0, split), bytes.subarray(split)], signed(body))).toBe(200);
    await waitFor("the event handled", async () => handled("INV-0103") === 1);
  });

  test("does not read a body larger than any of ours", async () => {
    const headers = signed(event({ invoice_number: "INV-0104" }));
    for (const declare of [true, false])
      expect(await postOversized(url, headers, { limit: 64 * 1024, declare })).toBe(413);
    expect(handled("INV-0104")).toBe(0);
  });
});
