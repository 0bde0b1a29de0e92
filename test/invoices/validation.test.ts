import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "./fixtures.ts";

type FieldError = { path: string; message: string; code: string };
type ErrorBody = {
  error: { code: string; message: string; request_id: string; fields?: FieldError[] };
};

describe("POST /api/invoices validation", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const rowCounts = async () =>
    (
      await sql<{ invoices: string; merchants: string; deposits: string; emails: string }>`
        select (select count(*) from app.invoices)::text as invoices,
               (select count(*) from app.merchants)::text as merchants,
               (select count(*) from app.deposit_addresses)::text as deposits,
               (select count(*) from app.emails)::text as emails`.execute(stack.db)
    ).rows[0];

  /** POSTs `body`, expects a 400 that changed nothing, returns the field errors. */
  const rejected = async (body: unknown): Promise<FieldError[]> => {
    const before = await rowCounts();
    const response = await stack.request("/api/invoices", { method: "POST", json: body });
    const payload = (await response.json()) as ErrorBody;
    expect(response.status, JSON.stringify(payload)).toBe(400);
    expect(payload.error.code).toBe("validation_failed");
    expect(payload.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await rowCounts()).toEqual(before);
    return payload.error.fields ?? [];
  };
  const accepted = async (body: unknown) => {
    const response = await stack.request("/api/invoices", { method: "POST", json: body });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  const line = (overrides: Record<string, unknown>) => ({
    description: "Work",
    quantity: 1,
    unit_price: "10.00",
    ...overrides,
  });

  describe("currency: USDC, or a currency with a price feed on Base (issue 45)", () => {
    test.each(["JPY", "usdc", "eur", "", 978, null])(
      "rejects %j, naming the field",
      async (currency) => {
        const fields = await rejected(invoiceRequest({ currency }));
        expect(fields).toEqual([
          {
            path: "currency",
            code: "invalid_enum",
            message:
              'must be "USDC", "USD", "EUR" or "GBP": USDC, or a currency with a Chainlink price feed on Base',
          },
        ]);
      },
    );

    test("in a currency, a unit price with more than 2 decimals is USDC's alone: refused per line", async () => {
      const fields = await rejected(
        invoiceRequest({
          currency: "EUR",
          line_items: [line({ unit_price: "10.00" }), line({ unit_price: "10.005" })],
        }),
      );
      expect(fields).toEqual([
        {
          path: "line_items[1].unit_price",
          code: "too_many_decimals",
          message: "must have at most 2 decimals in EUR",
        },
      ]);
      // The same price is a USDC amount.
      await accepted(invoiceRequest({ line_items: [line({ unit_price: "10.005" })] }));
    });

    test("in a currency each line is priced to the cent, and the invoice is stored in it", async () => {
      const response = await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          currency: "GBP",
          line_items: [line({ quantity: 1.5, unit_price: "3.33" })],
        }),
      });
      expect(response.status).toBe(201);
      const created = (await response.json()) as { invoice_id: string; total_amount: string };
      // 1.5 × 3.33 = 4.995, half-up to the cent: 5.00 (in USDC it would stay 4.995).
      expect(created).toMatchObject({ total_amount: "5.00", currency: "GBP" });
      const detail = await stack.request(`/api/invoices/${created.invoice_id}`);
      expect(await detail.json()).toMatchObject({
        currency: "GBP",
        total_amount: "5.00",
        underpayment_tolerance: "0.00",
        line_items: [{ line_total: "5.00" }],
      });
    });
  });

  describe("unit_price: a quoted decimal string with 1–6 decimals", () => {
    test.each([100, "100", "1e2", "-1.00", "1.1234567", "1.", ".5", "", null])(
      "rejects %j",
      async (unitPrice) => {
        const fields = await rejected(
          invoiceRequest({ line_items: [line({ unit_price: unitPrice })] }),
        );
        expect(fields).toEqual([
          {
            path: "line_items[0].unit_price",
            code: "invalid_decimal",
            message: expect.stringContaining("decimal"),
          },
        ]);
      },
    );
    test.each(["100.00", "0.5", "1.123456"])("accepts %j", async (unitPrice) => {
      await accepted(invoiceRequest({ line_items: [line({ unit_price: unitPrice })] }));
    });
  });

  test.each([
    [0, "not_positive"],
    [-2, "not_positive"],
    ["2", "invalid_type"],
    [1_000_000_001, "too_large"],
  ])("quantity %j is refused (%s)", async (quantity, code) => {
    const fields = await rejected(invoiceRequest({ line_items: [line({ quantity })] }));
    expect(fields).toEqual([expect.objectContaining({ path: "line_items[0].quantity", code })]);
  });

  test("line_items: 0 and 31 are refused; 1 is enough", async () => {
    expect(await rejected(invoiceRequest({ line_items: [] }))).toEqual([
      expect.objectContaining({ path: "line_items", code: "too_few" }),
    ]);
    const many = Array.from({ length: 31 }, () => line({}));
    expect(await rejected(invoiceRequest({ line_items: many }))).toEqual([
      expect.objectContaining({ path: "line_items", code: "too_many" }),
    ]);
    await accepted(invoiceRequest({ line_items: [line({})] }));
  });

  test.each(["\u0000", "a\u0007b", "x\u001b[31m"])(
    "text with control characters (%j) is refused",
    async (description) => {
      const fields = await rejected(
        invoiceRequest({ vendor_name: description, line_items: [line({ description })] }),
      );
      expect(fields).toEqual([
        expect.objectContaining({ path: "vendor_name", code: "invalid_characters" }),
        expect.objectContaining({ path: "line_items[0].description", code: "invalid_characters" }),
      ]);
    },
  );

  test("a line item needs a description", async () => {
    const fields = await rejected(
      invoiceRequest({
        line_items: [{ quantity: 1, unit_price: "1.00" }, line({ description: "  " })],
      }),
    );
    expect(fields).toEqual([
      expect.objectContaining({ path: "line_items[0].description", code: "required" }),
      expect.objectContaining({ path: "line_items[1].description", code: "required" }),
    ]);
  });

  test.each([
    "2026-13-01",
    "2026-02-30",
    "2025-02-29",
    "2026/01/01",
    "20260101",
    "2026-1-01",
    20260101,
  ])("due_date %j is not a calendar date", async (due) => {
    const fields = await rejected(invoiceRequest({ due_date: due }));
    expect(fields).toEqual([
      expect.objectContaining({
        path: "due_date",
        code: due === 20260101 ? "invalid_type" : "invalid_date",
      }),
    ]);
  });

  test("issue_date must be a date and the due date may not precede it; leap days are dates", async () => {
    expect(await rejected(invoiceRequest({ issue_date: "2026-04-31" }))).toEqual([
      expect.objectContaining({ path: "issue_date", code: "invalid_date" }),
    ]);
    expect(
      await rejected(invoiceRequest({ issue_date: "2026-05-02", due_date: "2026-05-01" })),
    ).toEqual([expect.objectContaining({ path: "due_date", code: "before_issue_date" })]);
    await accepted(invoiceRequest({ issue_date: "2024-02-29", due_date: "2024-02-29" }));
  });

  test("issue_date defaults to today (UTC)", async () => {
    const { issue_date: _omitted, ...request } = invoiceRequest();
    const created = (await (
      await stack.request("/api/invoices", { method: "POST", json: request })
    ).json()) as { invoice_id: string };
    const invoice = (await (await stack.request(`/api/invoices/${created.invoice_id}`)).json()) as {
      issue_date: string;
    };
    expect(invoice.issue_date).toBe(new Date().toISOString().slice(0, 10));
  });

  describe("wallet_address", () => {
    test("is required for byo", async () => {
      expect(await rejected(invoiceRequest({ wallet_type: "byo" }))).toEqual([
        expect.objectContaining({ path: "wallet_address", code: "required" }),
      ]);
    });
    test("must be checksummed: an all-lowercase address is refused with its checksummed form", async () => {
      const fields = await rejected(
        invoiceRequest({
          wallet_type: "byo",
          wallet_address: "0x8ba1f109551bd432803012645ac136ddd64dba72",
        }),
      );
      expect(fields).toEqual([
        {
          path: "wallet_address",
          code: "not_checksummed",
          message: expect.stringContaining("0x8ba1f109551bD432803012645Ac136ddd64DBA72"),
        },
      ]);
    });
    test.each([
      "0x123",
      "8ba1f109551bD432803012645Ac136ddd64DBA72",
      "0xZZa1f109551bD432803012645Ac136ddd64DBA72",
    ])("must be an address: %j", async (address) => {
      expect(
        await rejected(invoiceRequest({ wallet_type: "byo", wallet_address: address })),
      ).toEqual([expect.objectContaining({ path: "wallet_address", code: "invalid_address" })]);
    });
    test("is refused with managed, which pays into the managed wallet", async () => {
      expect(
        await rejected(
          invoiceRequest({
            wallet_type: "managed",
            wallet_address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
          }),
        ),
      ).toEqual([expect.objectContaining({ path: "wallet_address", code: "not_allowed" })]);
    });
  });

  test("wallet_type must be managed or byo", async () => {
    expect(await rejected(invoiceRequest({ wallet_type: "custodial" }))).toEqual([
      expect.objectContaining({ path: "wallet_type", code: "invalid_enum" }),
    ]);
  });

  test.each(["merchant_email", "vendor_email"])("%s must be an email address", async (field) => {
    expect(await rejected(invoiceRequest({ [field]: "not-an-email" }))).toEqual([
      expect.objectContaining({ path: field, code: "invalid_email" }),
    ]);
  });

  test.each([
    "merchant_email",
    "merchant_name",
    "merchant_address",
    "vendor_email",
    "vendor_name",
    "line_items",
    "due_date",
    "wallet_type",
  ])("%s is required", async (field) => {
    const { [field]: _omitted, ...request } = invoiceRequest();
    expect(await rejected(request)).toEqual([
      { path: field, code: "required", message: "is required" },
    ]);
  });

  test("webhook_url must be an http(s) URL and send_now a boolean", async () => {
    expect(await rejected(invoiceRequest({ webhook_url: "ftp://example.com/hook" }))).toEqual([
      expect.objectContaining({ path: "webhook_url", code: "invalid_url" }),
    ]);
    expect(await rejected(invoiceRequest({ send_now: "false" }))).toEqual([
      expect.objectContaining({ path: "send_now", code: "invalid_type" }),
    ]);
  });

  test("unknown fields are refused, with a hint for a typo", async () => {
    const fields = await rejected({ ...invoiceRequest(), send_nwo: false, color: "blue" });
    expect(fields).toEqual([
      {
        path: "send_nwo",
        code: "unknown_field",
        message: 'is not a known field; did you mean "send_now"?',
      },
      { path: "color", code: "unknown_field", message: "is not a known field" },
    ]);
    const nested = await rejected(
      invoiceRequest({ line_items: [{ ...line({}), unit_prise: "1.00" }] }),
    );
    expect(nested).toContainEqual({
      path: "line_items[0].unit_prise",
      code: "unknown_field",
      message: 'is not a known field; did you mean "unit_price"?',
    });
  });

  test("a total beyond 100 billion USDC is refused (it would not fit the ledger)", async () => {
    expect(
      await rejected(
        invoiceRequest({
          line_items: [line({ quantity: 1_000_000_000, unit_price: "999999999999.999999" })],
        }),
      ),
    ).toEqual([expect.objectContaining({ path: "line_items", code: "too_large" })]);
  });

  test("a zero total is refused", async () => {
    expect(await rejected(invoiceRequest({ line_items: [line({ unit_price: "0.00" })] }))).toEqual([
      expect.objectContaining({ path: "line_items", code: "zero_total" }),
    ]);
  });

  test("reports every failing field at once", async () => {
    const fields = await rejected({
      merchant_email: "nope",
      merchant_name: "",
      vendor_email: "ap@globex.example",
      vendor_name: "Globex",
      line_items: [line({ unit_price: 100 }), line({ quantity: -1 })],
      due_date: "2026-02-30",
      wallet_type: "byo",
      wallet_address: "0x8ba1f109551bd432803012645ac136ddd64dba72",
      send_nwo: true,
    });
    expect(fields.map((f) => [f.path, f.code]).sort()).toEqual(
      [
        ["merchant_email", "invalid_email"],
        ["merchant_name", "required"],
        ["merchant_address", "required"],
        ["line_items[0].unit_price", "invalid_decimal"],
        ["line_items[1].quantity", "not_positive"],
        ["due_date", "invalid_date"],
        ["wallet_address", "not_checksummed"],
        ["send_nwo", "unknown_field"],
      ].sort(),
    );
  });

  test("a body that is not a JSON object is a 400", async () => {
    for (const body of [[], "invoice", 42, null]) {
      const fields = await rejected(body);
      expect(fields).toEqual([expect.objectContaining({ path: "", code: "invalid_type" })]);
    }
  });

  describe("the request itself", () => {
    const post = (body: string | undefined, headers: Record<string, string>) =>
      stack.request("/api/invoices", { method: "POST", body, headers });

    test("malformed JSON is a 400 naming the line and column", async () => {
      const response = await post('{\n  "merchant_email": "a@b.co",\n  "line_items": [,]\n}', {
        "content-type": "application/json",
      });
      const body = (await response.json()) as ErrorBody;
      expect(response.status).toBe(400);
      expect(body.error.code).toBe("invalid_json");
      expect(body.error.message).toMatch(/line 3, column 18/);
    });

    test("an empty body is a 400", async () => {
      const response = await post(undefined, { "content-type": "application/json" });
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorBody).error.code).toBe("invalid_json");
    });

    test("a body that is not JSON is a 415", async () => {
      const response = await post("merchant_email=a@b.co", {
        "content-type": "application/x-www-form-urlencoded",
      });
      expect(response.status).toBe(415);
      expect(((await response.json()) as ErrorBody).error.code).toBe("unsupported_media_type");
    });

    test("a body over 256 KiB is a 413", async () => {
      const huge = JSON.stringify(invoiceRequest({ notes: "x".repeat(300 * 1024) }));
      const response = await post(huge, { "content-type": "application/json" });
      expect(response.status).toBe(413);
      expect(((await response.json()) as ErrorBody).error.code).toBe("payload_too_large");
    });

    test("an Idempotency-Key must be printable ASCII", async () => {
      const response = await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest(),
        headers: { "Idempotency-Key": "x".repeat(300) },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorBody).error.fields).toEqual([
        expect.objectContaining({ path: "idempotency-key" }),
      ]);
    });
  });
});
