import { describe, expect, test } from "vitest";
import { isPublicRoute, isWriteRequest } from "./publicRoutes.ts";

describe("isPublicRoute", () => {
  test("the status endpoints, the PDF by slug, claims and a payer's authorizations; nothing else", () => {
    for (const [method, path] of [
      ["GET", "/api/payments/status/7Hq3xKp2MwZa"],
      ["HEAD", "/api/invoices/4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11/status"],
      ["GET", "/api/invoices/by-slug/7Hq3xKp2MwZa/pdf"],
      ["POST", "/api/merchants/claim"],
      ["POST", "/api/payments/7Hq3xKp2MwZa/authorizations"],
      ["GET", "/api/payments/7Hq3xKp2MwZa/authorizations/4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11"],
      ["GET", `/api/transactions/0x${"ab".repeat(32)}`],
    ] as const)
      expect([method, path, isPublicRoute(method, path)]).toEqual([method, path, true]);
    for (const [method, path] of [
      ["POST", "/api/payments/status/7Hq3xKp2MwZa"],
      ["GET", "/api/invoices/4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11"],
      ["GET", "/api/invoices/4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11/pdf"],
      ["GET", "/api/invoices/x/status/extra"],
      ["POST", "/api/invoices"],
      ["GET", "/api/merchants/claim"],
      ["GET", "/api/keys"],
      ["DELETE", "/api/payments/7Hq3xKp2MwZa/authorizations/x"],
      ["POST", `/api/transactions/0x${"ab".repeat(32)}`],
      ["GET", "/api/transactions/0xab/extra"],
    ] as const)
      expect([method, path, isPublicRoute(method, path)]).toEqual([method, path, false]);
  });
});

describe("isWriteRequest", () => {
  test("every method but GET and HEAD", () => {
    expect(["GET", "HEAD"].map(isWriteRequest)).toEqual([false, false]);
    expect(["POST", "PUT", "PATCH", "DELETE"].map(isWriteRequest)).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });
});
