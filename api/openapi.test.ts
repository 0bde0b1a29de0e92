import { describe, expect, test } from "vitest";
import { createApp } from "../server/app.ts";
import type { AppDeps } from "./deps.ts";

// The document is generated from the route schemas alone: no database is touched.
const app = createApp({
  baseUrl: "http://localhost:3000",
  payUrl: "http://localhost:3000",
  outboxDir: null,
  allowPrivateWebhooks: true,
  log: { error: () => {}, debug: () => {} },
} as unknown as AppDeps);

describe("GET /openapi.json", () => {
  test("documents every API route, each schema included", async () => {
    const response = await app.request("/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/invoices",
        "/api/invoices/{id}",
        "/api/invoices/{id}/pdf",
        "/api/invoices/{id}/send",
        "/api/invoices/{id}/status",
        "/api/invoices/{id}/webhooks",
        "/api/invoices/{id}/webhooks/{event_id}/redeliver",
        "/api/links",
        "/api/payments/status/{slug}",
      ].sort(),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        "CreateInvoiceRequest",
        "CreateLinkRequest",
        "Invoice",
        "Error",
        "PaymentStatusResponse",
      ]),
    );
  });
});

describe("rate-limited routes", () => {
  test("document their 429", async () => {
    const doc = (await (await app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ["/api/invoices", "post"],
      ["/api/links", "post"],
      ["/api/invoices/{id}/status", "get"],
      ["/api/payments/status/{slug}", "get"],
    ] as const) {
      expect(doc.paths[path]?.[method]?.responses).toHaveProperty("429");
    }
  });
});
