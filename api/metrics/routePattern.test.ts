import { describe, expect, test } from "vitest";
import { methodLabel, routePattern, UNMATCHED_ROUTE } from "./routePattern.ts";

describe("routePattern", () => {
  test("is the endpoint's pattern, not the path", () => {
    expect(
      routePattern([
        { method: "ALL", path: "*" },
        { method: "GET", path: "/api/invoices/:id" },
      ]),
    ).toBe("/api/invoices/:id");
  });

  test("names the endpoint when its middleware or validator answered, before its handler", () => {
    // zod-openapi registers a route's middleware, validators and handler under its pattern.
    expect(
      routePattern([
        { method: "ALL", path: "*" },
        { method: "POST", path: "/api/invoices" },
        { method: "POST", path: "/api/invoices" },
        { method: "ALL", path: "/pay/*" },
      ]),
    ).toBe("/api/invoices");
  });

  test("is 'unmatched' when only middleware matched or nothing did", () => {
    expect(routePattern([{ method: "ALL", path: "*" }])).toBe(UNMATCHED_ROUTE);
    expect(routePattern([])).toBe(UNMATCHED_ROUTE);
  });
});

describe("methodLabel", () => {
  test("keeps the standard methods and folds made-up ones", () => {
    expect(["get", "POST", "HEAD", "options"].map(methodLabel)).toEqual([
      "GET",
      "POST",
      "HEAD",
      "OPTIONS",
    ]);
    expect(methodLabel("BREW")).toBe("other");
  });
});
