import { afterEach, describe, expect, test } from "vitest";
import { Remit, RemitError } from "../src/index.ts";
import { type Answer, apiError, scriptedApi } from "./scriptedApi.ts";

type Api = Awaited<ReturnType<typeof scriptedApi>>;
let api: Api | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

/** A scripted API answering the given answers in turn, then 200 `{ ok: true }`. */
async function answering(...answers: Answer[]) {
  api = await scriptedApi((_, index) => answers[index] ?? { status: 200, json: { ok: true } });
  return api;
}

const throttled = (retryAfter: string): Answer => ({
  status: 429,
  headers: { "retry-after": retryAfter },
  json: apiError("rate_limited", "too many requests"),
});
const unavailable: Answer = { status: 503, json: apiError("unavailable", "try again") };

const invoiceRequest = {
  merchant_email: "billing@acme.example",
  merchant_name: "Acme Ltd",
  merchant_address: "1 Market Street",
  vendor_email: "ap@globex.example",
  vendor_name: "Globex",
  line_items: [{ description: "Work", quantity: 1, unit_price: "10.00" }],
  due_date: "2099-12-31",
  wallet_type: "managed" as const,
};

const caught = async (promise: Promise<unknown>): Promise<RemitError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RemitError);
    return error as RemitError;
  }
  throw new Error("succeeded, but should have failed");
};

describe("retries", () => {
  test("a 429 is retried after the seconds its Retry-After says, not sooner", async () => {
    const { url, seen } = await answering(throttled("1"));
    const remit = new Remit({ baseUrl: url, apiKey: "remit_sk_test" });
    expect(await remit.invoices.get("a1b2")).toEqual({ ok: true });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /api/invoices/a1b2",
      "GET /api/invoices/a1b2",
    ]);
    expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(990);
    expect(seen[1]?.headers.authorization).toBe("Bearer remit_sk_test");
  });

  test("Retry-After as an HTTP date is honoured too", async () => {
    const { url, seen } = await answering(throttled(new Date(Date.now() + 2_000).toUTCString()));
    await new Remit({ baseUrl: url }).events.get("e1");
    expect(seen).toHaveLength(2);
    // The date has a one-second resolution: at least a second later.
    expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  test("5xx and a cut connection are retried with backoff; a creation keeps its Idempotency-Key", async () => {
    const { url, seen } = await answering(unavailable, "drop");
    const remit = new Remit({ baseUrl: url });
    expect(await remit.invoices.create(invoiceRequest)).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    const keys = seen.map((r) => r.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(seen.every((r) => JSON.parse(r.body).vendor_name === "Globex")).toBe(true);
    // Backoff: about 0.5 s, then about 1 s (each between half and all of it).
    const gaps = [1, 2].map((i) => (seen[i]?.at ?? 0) - (seen[i - 1]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(240);
    expect(gaps[1]).toBeGreaterThanOrEqual(490);
  });

  test("a given Idempotency-Key is sent as is; each creation otherwise gets a key of its own", async () => {
    const { url, seen } = await answering();
    const remit = new Remit({ baseUrl: url });
    const link = {
      merchant_email: "billing@acme.example",
      amount: "5.00",
      description: "Coffee",
      wallet_type: "managed" as const,
    };
    await remit.links.create(link, { idempotencyKey: "order-1042" });
    await remit.links.create(link);
    await remit.links.create(link);
    expect(seen[0]?.headers["idempotency-key"]).toBe("order-1042");
    expect(seen[1]?.headers["idempotency-key"]).not.toBe(seen[2]?.headers["idempotency-key"]);
  });

  test("a refund and a payout carry an Idempotency-Key, kept across retries: a 5xx never pays twice", async () => {
    const refund = { to: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", amount: "1.00" };
    const { url, seen } = await answering(unavailable, "drop");
    const remit = new Remit({ baseUrl: url });
    expect(await remit.invoices.refund("a1b2", refund)).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    const keys = seen.map((r) => r.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);

    const given = await answering();
    await new Remit({ baseUrl: given.url }).payouts.create(
      { amount: "5.00", to: refund.to },
      { idempotencyKey: "withdraw-7" },
    );
    expect(given.seen[0]?.headers["idempotency-key"]).toBe("withdraw-7");
  });

  test("a POST without an Idempotency-Key (a test event) is not repeated after a 5xx, only after a 429", async () => {
    const failing = await answering(unavailable);
    const error = await caught(new Remit({ baseUrl: failing.url }).webhookEndpoints.test("e1"));
    expect(error.status).toBe(503);
    expect(failing.seen).toHaveLength(1);
    expect(failing.seen[0]?.headers["idempotency-key"]).toBeUndefined();
    await failing.stop();

    const limited = await answering(throttled("0"));
    await new Remit({ baseUrl: limited.url }).webhookEndpoints.test("e1");
    expect(limited.seen).toHaveLength(2);
  });

  test("gives up after maxRetries, with the last answer's error", async () => {
    const { url, seen } = await answering(throttled("0"), throttled("0"), throttled("0"));
    const error = await caught(
      new Remit({ baseUrl: url, maxRetries: 1 }).payments.list().firstPage(),
    );
    expect(seen).toHaveLength(2);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfter: 0 });
  });

  test("a Retry-After longer than maxRetryDelayMs is not waited for: the error carries it", async () => {
    const { url, seen } = await answering(throttled("3600"));
    const started = Date.now();
    const error = await caught(new Remit({ baseUrl: url }).invoices.get("a1b2"));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, retryAfter: 3600 });
  });

  test("a network error that outlasts the retries is a RemitError with status 0", async () => {
    const { url, seen } = await answering("drop", "drop");
    const error = await caught(new Remit({ baseUrl: url, maxRetries: 1 }).invoices.get("a1b2"));
    expect(error).toMatchObject({ status: 0, code: "network_error" });
    expect(seen).toHaveLength(2);
  });
});

describe("errors", () => {
  test("carry the status, the code, every field error and the request id; a 400 is not retried", async () => {
    const fields = [
      { path: "line_items[0].unit_price", message: "must be a decimal", code: "invalid_decimal" },
      { path: "send_nwo", message: 'did you mean "send_now"?', code: "unknown_field" },
    ];
    const { url, seen } = await answering({
      status: 400,
      json: apiError("validation_failed", "2 fields failed validation", { fields }),
    });
    const error = await caught(new Remit({ baseUrl: url }).invoices.create(invoiceRequest));
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({
      status: 400,
      code: "validation_failed",
      requestId: "req-42",
      fields,
    });
    expect(error.message).toBe("400 validation_failed: 2 fields failed validation");
  });

  test("an answer that is not the API's error shape still gives status and request id", async () => {
    const { url } = await answering({
      status: 502,
      headers: { "x-request-id": "edge-7" },
      json: "bad gateway",
    });
    const error = await caught(new Remit({ baseUrl: url, maxRetries: 0 }).invoices.get("x"));
    expect(error).toMatchObject({ status: 502, code: "http_502", requestId: "edge-7", fields: [] });
  });
});
