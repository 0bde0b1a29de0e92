import fc from "fast-check";
import { sql } from "kysely";
import { afterEach, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;
type Sent = { method: string; path: string; body?: Buffer; type?: string };
type Answer = Sent & { status: number; json: Json | null; text: string };

const INVOICE_TEXT = [
  "merchant_name",
  "merchant_address",
  "vendor_name",
  "vendor_address",
  "notes",
];
const LINK_TEXT = ["description"];

/** Strings that have broken parsers, databases and renderers before. */
const unicodeEdges = [
  "\ud800", // lone high surrogate
  "\udfff", // lone low surrogate
  "a\ud83dz", // half an emoji
  "\u0000",
  "a\u0000b",
  "\ufeffAcme", // BOM inside a value
  "\u202eemag.exe", // right-to-left override
  "\u200f\u200e\u2067x\u2069", // RTL/LTR marks and isolates
  "\u00a0",
  "\u2028\u2029",
  "Z\u0351\u0358\u0334\u035c\u0361a\u0362lgo", // combining marks
  "👨‍👩‍👧‍👦🏳️‍🌈",
  "\uffff\ufffe",
  "𝕏".repeat(300),
  "x".repeat(200_000), // huge, yet the body stays under 256 KiB
];

/** Bodies that are not what a JSON endpoint expects, as bytes, with their content type. */
const malformedBodies: { name: string; bytes: Buffer; type?: string }[] = [
  { name: "empty", bytes: Buffer.alloc(0) },
  {
    name: "10,000 nested arrays",
    bytes: Buffer.from(`${"[".repeat(10_000)}${"]".repeat(10_000)}`),
  },
  {
    name: "100,000 nested arrays",
    bytes: Buffer.from(`${"[".repeat(100_000)}${"]".repeat(100_000)}`),
  },
  { name: "unclosed nesting", bytes: Buffer.from("[".repeat(200_000)) },
  { name: "deep objects", bytes: Buffer.from(`${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`) },
  { name: "huge string", bytes: Buffer.from(JSON.stringify({ description: "x".repeat(250_000) })) },
  {
    name: "over 256 KiB",
    bytes: Buffer.from(JSON.stringify({ description: "x".repeat(300_000) })),
  },
  {
    name: "BOM then JSON",
    bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("{}")]),
  },
  { name: "invalid UTF-8", bytes: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { name: "UTF-8 encoded surrogate", bytes: Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]) },
  { name: "overlong NUL", bytes: Buffer.from([0x22, 0xc0, 0x80, 0x22]) },
  { name: "UTF-16", bytes: Buffer.from('{"a":1}', "utf16le") },
  { name: "NUL bytes", bytes: Buffer.from('{"a":\u00001}') },
  { name: "trailing garbage", bytes: Buffer.from('{"a":1} x') },
  { name: "number", bytes: Buffer.from("1e999999") },
  {
    name: "__proto__",
    bytes: Buffer.from('{"__proto__":{"admin":true},"constructor":{"prototype":{}}}'),
  },
  { name: "duplicate keys", bytes: Buffer.from('{"amount":"1.00","amount":"-1.00"}') },
  { name: "form", bytes: Buffer.from("amount=1.00"), type: "application/x-www-form-urlencoded" },
  { name: "text", bytes: Buffer.from("{}"), type: "text/plain" },
  {
    name: "multipart",
    bytes: Buffer.from("--x\r\n\r\n--x--"),
    type: "multipart/form-data; boundary=x",
  },
  { name: "no type", bytes: Buffer.from("{}"), type: "" },
  { name: "jsonish type", bytes: Buffer.from("{}"), type: "application/jsonp" },
  {
    name: "charset",
    bytes: Buffer.from('{"a":"\u00e9"}', "latin1"),
    type: "application/json; charset=latin1",
  },
];

/** Any JSON value, including odd numbers and unicode. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...unicodeEdges),
  fc.constantFrom(0, -1, 1e308, 2 ** 53 + 1, 0.1, null, true, [], {}),
  fc.string({ unit: "binary", maxLength: 30 }),
);

/** A valid request with fields dropped, replaced by anything, or added. */
const mutated = (valid: () => Json) =>
  fc
    .record({
      drop: fc.subarray(Object.keys(valid())),
      replace: fc.dictionary(fc.constantFrom(...Object.keys(valid())), anyJson, { maxKeys: 3 }),
      extra: fc.dictionary(fc.string({ unit: "binary", maxLength: 10 }), anyJson, { maxKeys: 2 }),
    })
    .map(({ drop, replace, extra }) => {
      const body: Json = { ...valid(), ...extra, ...replace };
      for (const key of drop) delete body[key];
      return JSON.stringify(body);
    });

/** A valid request with one text field set to a unicode edge case (may well be accepted). */
const withEdgeText = (valid: () => Json, fields: string[]) =>
  fc
    .record({ field: fc.constantFrom(...fields), value: fc.constantFrom(...unicodeEdges) })
    .map(({ field, value }) => JSON.stringify({ ...valid(), [field]: value }));

const jsonBodies = (valid: () => Json, textFields: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: mutated(valid) },
    { weight: 3, arbitrary: withEdgeText(valid, textFields) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 100 }) },
    { weight: 1, arbitrary: mutated(valid).map((s) => s.slice(0, Math.floor(s.length / 2))) },
  );

/** A path segment: random text, traversal, encodings, and very long ones. */
const segment = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }).map(encodeURIComponent),
  fc.uuid().map(String),
  fc.constantFrom("..", "%2e%2e", "%00", "%ff", "%", "%E0%A4%A", "x".repeat(8000), "null", "-1"),
);

describe("fuzz: every endpoint under malformed input", () => {
  let stack: TestStack | undefined;
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  const send = async (s: TestStack, sent: Sent): Promise<Answer> => {
    const response = await fetch(`${s.api.url}${sent.path}`, {
      method: sent.method,
      ...(sent.body ? { body: new Uint8Array(sent.body) } : {}),
      headers: sent.type === undefined ? {} : sent.type ? { "content-type": sent.type } : {},
    });
    const text = await response.text();
    let json: Json | null = null;
    try {
      json = JSON.parse(text) as Json;
    } catch {}
    return { ...sent, status: response.status, json, text };
  };

  /** Never a 5xx; API errors always have the documented shape. */
  const checkAnswer = (answer: Answer) => {
    const what = `${answer.method} ${answer.path.slice(0, 80)} ${answer.body?.subarray(0, 120).toString() ?? ""}`;
    expect(answer.status, `${what} → ${answer.text.slice(0, 300)}`).toBeLessThan(500);
    if (answer.path.startsWith("/api/") && answer.status >= 400 && answer.status !== 431) {
      const error = (answer.json as { error?: Json } | null)?.error;
      expect(error?.code, `${what} → ${answer.text.slice(0, 300)}`).toMatch(/^[a-z_]+$/);
      expect(error?.request_id).toEqual(expect.any(String));
    }
  };

  test("POST /api/invoices and /api/links: no 500, and only accepted requests leave rows", async () => {
    const s = await startStack();
    stack = s;
    const answers: Answer[] = [];
    const post = async (path: string, body: string | Buffer, type = "application/json") => {
      const answer = await send(s, { method: "POST", path, body: Buffer.from(body), type });
      checkAnswer(answer);
      answers.push(answer);
    };

    for (const path of ["/api/invoices", "/api/links"]) {
      for (const { bytes, type } of malformedBodies) await post(path, bytes, type);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(jsonBodies(invoiceRequest, INVOICE_TEXT), { minLength: 6, maxLength: 6 }),
        fc.array(jsonBodies(linkRequest, LINK_TEXT), { minLength: 6, maxLength: 6 }),
        async (invoices, links) => {
          await Promise.all([
            ...invoices.map((body) => post("/api/invoices", body)),
            ...links.map((body) => post("/api/links", body)),
          ]);
        },
      ),
      { numRuns: 40, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
    );

    const accepted = answers.filter((a) => a.status === 201);
    const rejected = answers.filter((a) => a.status !== 201);
    expect(accepted.length).toBeGreaterThan(20);
    expect(rejected.length).toBeGreaterThan(300);
    // Every stored invoice and link is one a 201 announced, holding exactly the text sent.
    const stored = await sql<{ kind: string; id: string; texts: Json }>`
      select 'invoice' as kind, id::text, jsonb_build_object(
        'merchant_name', merchant_name_snapshot, 'merchant_address', merchant_address_snapshot,
        'vendor_name', vendor_name, 'vendor_address', vendor_address, 'notes', notes) as texts
      from app.invoices
      union all
      select 'link', id::text, jsonb_build_object('description', description) from app.payment_links`.execute(
      s.db,
    );
    const byId = new Map(
      accepted.map((a) => [(a.json?.invoice_id ?? a.json?.link_id) as string, a] as const),
    );
    expect(stored.rows).toHaveLength(accepted.length);
    for (const row of stored.rows) {
      const answer = byId.get(row.id);
      expect(answer, `row ${row.id} was never announced`).toBeDefined();
      const request = JSON.parse(answer?.body?.toString() ?? "{}") as Json;
      for (const [field, value] of Object.entries(row.texts)) {
        const sent = request[field];
        expect(value, field).toBe(typeof sent === "string" ? sent.trim() : null);
      }
    }
    // Nothing else was left by a rejected request: every other row belongs to an accepted one.
    const { rows } = await sql<Record<string, string>>`
      select
        (select count(*) from app.deposit_addresses)::text as deposit_addresses,
        (select count(*) from graphile_worker.jobs where key like 'pdf:invoice:%')::text as pdf_renders,
        (select count(*) from app.emails where invoice_id is null
           or invoice_id not in (select id from app.invoices))::text as stray_emails,
        (select count(*) from app.merchants m where not exists
           (select 1 from app.invoices i where i.merchant_id = m.id)
           and not exists (select 1 from app.payment_links l where l.merchant_id = m.id))::text as stray_merchants,
        (select count(*) from app.idempotency_keys)::text as idempotency_keys,
        (select count(*) from app.payment_events)::text as events`.execute(s.db);
    const invoicesAccepted = accepted.filter((a) => a.path === "/api/invoices").length;
    expect(rows[0]).toEqual({
      deposit_addresses: String(accepted.length),
      pdf_renders: String(invoicesAccepted),
      stray_emails: "0",
      stray_merchants: "0",
      idempotency_keys: "0",
      events: "0",
    });
  });

  test("path parameters and body-less routes: no 500 and nothing written", async () => {
    const s = await startStack();
    stack = s;
    const created = await send(s, {
      method: "POST",
      path: "/api/invoices",
      body: Buffer.from(JSON.stringify(invoiceRequest({ webhook_url: "http://127.0.0.1:9/x" }))),
      type: "application/json",
    });
    expect(created.status).toBe(201);
    const id = created.json?.invoice_id as string;
    const routes = (a: string, b: string): Sent[] => [
      { method: "GET", path: `/api/invoices/${a}` },
      { method: "GET", path: `/api/invoices/${a}/pdf` },
      { method: "GET", path: `/api/invoices/${a}/status` },
      { method: "GET", path: `/api/invoices/${a}/webhooks` },
      { method: "POST", path: `/api/invoices/${a}/send` },
      { method: "POST", path: `/api/invoices/${a}/webhooks/${b}/redeliver` },
      { method: "POST", path: `/api/invoices/${id}/webhooks/${b}/redeliver` },
      { method: "GET", path: `/api/payments/status/${a}` },
      { method: "POST", path: `/api/payments/${a}/authorizations` },
      { method: "GET", path: `/api/payments/${a}/authorizations/${b}` },
      { method: "GET", path: `/i/${a}` },
      { method: "GET", path: `/pay/${a}` },
      { method: "GET", path: `/merchant/${a}` },
      { method: "GET", path: `/dev/outbox/${a}` },
      { method: "PUT", path: `/api/invoices/${a}` },
    ];
    const before = await rowCounts(s);
    await fc.assert(
      fc.asyncProperty(
        segment,
        segment,
        fc.option(fc.constantFrom(...malformedBodies)),
        async (a, b, body) => {
          const answers = await Promise.all(
            routes(a, b).map((route) =>
              send(
                s,
                body && route.method !== "GET"
                  ? { ...route, body: body.bytes, type: body.type ?? "application/json" }
                  : route,
              ),
            ),
          );
          for (const answer of answers) checkAnswer(answer);
        },
      ),
      { numRuns: 60 },
    );
    // The send and redeliver routes refused every random id; the real invoice was never sent
    // by a random body, and no event or delivery appeared.
    expect(await rowCounts(s)).toEqual(before);
  });
});

async function rowCounts(s: TestStack) {
  const { rows } = await sql<Record<string, string>>`
    select (select count(*) from app.invoices where status = 'sent')::text as sent,
           (select count(*) from app.emails)::text as emails,
           (select count(*) from app.webhook_deliveries)::text as deliveries,
           (select count(*) from app.payment_events)::text as events,
           (select count(*) from graphile_worker.jobs)::text as jobs`.execute(s.db);
  return rows[0];
}
