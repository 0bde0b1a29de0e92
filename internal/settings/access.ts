import { z } from "zod";
import { rateBudget } from "./values.ts";

/** Who may call what, and how often: authentication, sign-up, rate limits and budgets. Part of internal/env.ts's schema; `.env.example` documents each. */
export const accessSettings = {
  /**
   * `open`: the spec's key-less creation (a claimed merchant still needs its key); `keys`: every
   * /api route but the public ones needs one. Default: open locally and in fork mode, keys with
   * BASE_RPC_URL (docs/api.md, "Who may call what").
   */
  AUTH_MODE: z.enum(["open", "keys"]).optional(),
  /**
   * `open`: anyone can claim an account for an email they read (POST /api/merchants/claim);
   * `closed`: only the operator adds merchants (`remit merchants add`), and claims only re-key
   * existing accounts. Default: open locally, closed with BASE_RPC_URL.
   */
  MERCHANT_SIGNUP: z.enum(["open", "closed"]).optional(),
  /** Per client IP and minute (0: no limit): status polling, invoice creation, link creation. */
  RATE_LIMIT_STATUS_PER_MIN: rateBudget.default(600),
  RATE_LIMIT_INVOICES_PER_MIN: rateBudget.default(60),
  RATE_LIMIT_LINKS_PER_MIN: rateBudget.default(120),
  /** Per API key and minute over every route; redeliveries per key and per client IP; claim requests per client IP. */
  RATE_LIMIT_KEY_PER_MIN: rateBudget.default(600),
  RATE_LIMIT_REDELIVERIES_PER_MIN: rateBudget.default(10),
  RATE_LIMIT_CLAIMS_PER_MIN: rateBudget.default(5),
  /**
   * Emails to addresses other than the account's own (vendors, a new notice address), per
   * merchant, per rolling hour and day (domain/emailBudget.ts): a busy month-end of invoicing,
   * far from a flood. 0: no limit.
   */
  EMAILS_TO_OTHERS_PER_HOUR: rateBudget.default(100),
  EMAILS_TO_OTHERS_PER_DAY: rateBudget.default(500),
  /** Gasless payment authorizations per client IP and minute, and per invoice or link and minute. */
  RATE_LIMIT_GASLESS_PER_MIN: rateBudget.default(10),
  /** Requests per client IP and minute on the refund claim page ({PAY_URL}/refund/{token}). */
  RATE_LIMIT_REFUNDS_PER_MIN: rateBudget.default(20),
  /** Transaction lookups (GET /api/transactions/{tx_hash}, the pages' "Paid but not showing?") per client IP and minute. */
  RATE_LIMIT_TX_LOOKUP_PER_MIN: rateBudget.default(30),
  GASLESS_PER_SLUG_PER_MIN: rateBudget.default(10),
  /** Refunds one merchant may request per hour, all its keys and open-mode calls together; 0: no limit. */
  REFUNDS_PER_MERCHANT_PER_HOUR: rateBudget.default(30),
  /** Requests to the x402 resource (GET /api/x402/{slug}) per client IP and minute; 0: no limit. */
  RATE_LIMIT_X402_PER_MIN: rateBudget.default(30),
};
