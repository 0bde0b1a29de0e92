import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi, priced, type RefundBody } from "../refunds/helpers.ts";

/**
 * A refund claim link is a bearer secret: whoever posts an address first receives the money.
 * It must work once (a replay, or two posts racing, never names a second address), never be
 * used by opening it (mail scanners open links), never be posted from another site (CSRF),
 * a guessed or tampered token must tell nothing, and guessing at speed is rate-limited. Stored
 * only as a hash.
 */
describe("a refund claim link replayed", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let api: ReturnType<typeof invoiceApi>;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
    api = invoiceApi(stack);
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  const post = (url: string, address: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ address, confirm: "yes" }).toString(),
      redirect: "manual",
    });

  test("used once: GETs consume nothing, a cross-site post is refused, racing posts pay one address, replays are 410", async () => {
    const invoice = await api.create({
      ...priced("1.00"),
      wallet_type: "byo",
      wallet_address: freshAddress(),
    });
    await chain.payUsdc(devAccount(8), invoice.deposit_address, 1_400_000n);
    await api.swept(invoice.invoice_id);
    const refund = (await answer(await api.refund(invoice.invoice_id, {}))).body as RefundBody;
    const url = String(refund.claim_url);

    // Opening the link (a mail scanner, a preview) uses nothing.
    for (let i = 0; i < 3; i++) expect((await fetch(url)).status).toBe(200);
    // Another site's form: refused, the link still unused.
    const forged = await post(url, freshAddress(), {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(forged.status).toBe(403);
    expect((await fetch(url)).status).toBe(200);
    // A tampered or guessed token: the same 410 page as a used one.
    const tampered = url.slice(0, -1) + (url.endsWith("a") ? "b" : "a");
    expect((await fetch(tampered)).status).toBe(410);
    expect((await post(tampered, freshAddress())).status).toBe(410);
    expect((await fetch(`${stack.api.url}/refund/not-a-token`)).status).toBe(410);

    // Ten posts race with ten different addresses: exactly one is taken.
    const addresses = Array.from({ length: 10 }, freshAddress);
    const statuses = await Promise.all(addresses.map((a) => post(url, a).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(9);
    // Replayed after: 410, GET and POST alike.
    expect((await fetch(url)).status).toBe(410);
    expect((await post(url, freshAddress())).status).toBe(410);

    const done = await api.refundIs(invoice.invoice_id, refund.refund_id, "confirmed");
    const winner = String(done.refunds[0]?.to);
    expect(addresses).toContain(winner);
    // Paid to the one address, exactly once; nobody else got anything.
    expect(await chain.usdcBalance(winner as `0x${string}`)).toBe(400_000n);
    for (const a of addresses.filter((a) => a !== winner))
      expect(await chain.usdcBalance(a)).toBe(0n);
    // The token is not in the database, only its hash.
    const token = url.split("/").at(-1) ?? "";
    const rows = await stack.db.selectFrom("app.refunds").selectAll().execute();
    expect(JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(
      token,
    );
    const sealed = await stack.db
      .selectFrom("app.emails")
      .select("sealed")
      .where("refund_id", "=", refund.refund_id)
      .execute();
    // The claim email's sealed copy is cleared once sent (the vendor's mailbox has it).
    await stack.waitForEmail((e) => (e.text ?? "").includes(url));
    expect(JSON.stringify(sealed)).not.toContain(token);

    // Guessing tokens at speed: the page is rate-limited per client IP
    // (RATE_LIMIT_REFUNDS_PER_MIN, 20 a minute by default; this client used its budget above).
    const guesses = await Promise.all(
      Array.from({ length: 25 }, () => fetch(`${stack.api.url}/refund/${"x".repeat(43)}`)),
    );
    const limited = guesses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
