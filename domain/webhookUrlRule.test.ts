import { expect, test } from "vitest";
import { webhookUrlProblem, webhookUrlRule } from "./webhookUrlPolicy.ts";

/**
 * The webhook form says the rule this deployment applies (issue 42: it said "https, on a public
 * host" and took http://127.0.0.1 locally, where private webhooks are allowed).
 */
test("the rule stated matches the rule applied, in each mode", () => {
  // Production: https on a public host, as webhookUrlProblem decides.
  expect(webhookUrlRule(false)).toMatch(/^https, on a public host/);
  expect(webhookUrlProblem("http://127.0.0.1:4000/hooks")).not.toBeNull();
  expect(webhookUrlProblem("https://hooks.example.com/remit")).toBeNull();
  // Local development (ALLOW_PRIVATE_WEBHOOKS): http and loopback are taken, and it says so.
  expect(webhookUrlRule(true)).toMatch(/^http or https, any host/);
  expect(webhookUrlRule(true)).toContain("loopback");
  expect(webhookUrlRule(true)).toContain("in production only https on a public host");
});
