import { describe, expect, test } from "vitest";
import { decodeListCursor, encodeListCursor } from "./listCursor.ts";

const invoiceKey = {
  at: "2026-11-01T09:30:00.123456Z",
  id: "7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d",
};
const paymentKey = {
  at: "2026-11-01T09:30:07.000000Z",
  id: `0x${"ab".repeat(32)}-3`,
};
const raw = (text: string) => Buffer.from(text).toString("base64url");

describe("list cursors", () => {
  test("a cursor decodes to the key it was made of, for its own list", () => {
    expect(decodeListCursor("invoices", encodeListCursor("invoices", invoiceKey))).toEqual(
      invoiceKey,
    );
    expect(decodeListCursor("links", encodeListCursor("links", invoiceKey))).toEqual(invoiceKey);
    expect(decodeListCursor("payments", encodeListCursor("payments", paymentKey))).toEqual(
      paymentKey,
    );
  });

  test("another list's cursor is refused", () => {
    expect(decodeListCursor("links", encodeListCursor("invoices", invoiceKey))).toBeNull();
    expect(decodeListCursor("payments", encodeListCursor("invoices", invoiceKey))).toBeNull();
  });

  test.each([
    ["empty", "invoices", ""],
    ["not base64url", "invoices", "abc+/="],
    ["too long", "invoices", "a".repeat(201)],
    ["no separators", "invoices", raw("invoices")],
    ["an extra part", "invoices", raw(`invoices|${invoiceKey.at}|${invoiceKey.id}|x`)],
    ["a month 13", "invoices", raw(`invoices|2026-13-01T09:30:00.000000Z|${invoiceKey.id}`)],
    ["February 30th", "invoices", raw(`invoices|2026-02-30T09:30:00.000000Z|${invoiceKey.id}`)],
    ["25 o'clock", "invoices", raw(`invoices|2026-02-01T25:30:00.000000Z|${invoiceKey.id}`)],
    ["milliseconds only", "invoices", raw(`invoices|2026-02-01T09:30:00.000Z|${invoiceKey.id}`)],
    ["an id that is no UUID", "invoices", raw(`invoices|${invoiceKey.at}|1 or 1=1`)],
    [
      "an upper-case UUID",
      "invoices",
      raw(`invoices|${invoiceKey.at}|${invoiceKey.id.toUpperCase()}`),
    ],
    [
      "a payment id without its log index",
      "payments",
      raw(`payments|${paymentKey.at}|0x${"ab".repeat(32)}`),
    ],
  ] as const)("malformed (%s): null", (_, kind, cursor) => {
    expect(decodeListCursor(kind, cursor)).toBeNull();
  });
});
