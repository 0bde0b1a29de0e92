import type { CoreDeps, TransactionLookupSettings } from "../app/deps.ts";
import type { RateLimits } from "./middleware/rateLimit.ts";
import type { StatusCache } from "./payments/statusCache.ts";

export type {
  AccountLimits,
  GaslessSettings,
  RefundLimits,
  TransactionLookupSettings,
} from "../app/deps.ts";

/**
 * What the HTTP application needs from its process: the application's (app/deps.ts) and the
 * HTTP adapter's own settings.
 */
export type AppDeps = CoreDeps & {
  /** Unlocks `/metrics` and the email capture (`Authorization: Bearer …`); none: local requests only. */
  opsToken?: string;
  /**
   * Whether the public port serves `/metrics` and the email capture to requests that look local
   * without the token (internal/operationalAccess.ts, publicPortTrustsLocal): only in a
   * zero-config development set-up. Default: true (tests of the app alone). The operational
   * listener (`opsApp`) always does.
   */
  opsTrustLocal?: boolean;
  /**
   * The only key the local email capture takes (internal/localCaptureKey.ts); none: the
   * capture takes no mail at all.
   */
  outboxKey?: string;
  /** Per-IP budgets of the unauthenticated endpoints; none: unlimited (tests of the app alone). */
  rateLimits?: RateLimits;
  /** The web dashboard (docs/dashboard.md): its session cookie is Secure (and `__Host-`); default: when PAY_URL is https. */
  dashboard?: { secureCookies: boolean };
  /** Answers of the status endpoint, invalidated by Postgres notifications; none in tests of the app alone. */
  statusCache?: StatusCache;
  /** CONFIRMATIONS and the per-IP budget of transaction lookups; none: 1 and unlimited (tests of the app alone). */
  transactionLookup?: TransactionLookupSettings;
  /** The x402 resource's settings (api/x402/resource.ts); none: no wait for the receipt. */
  x402?: X402Settings;
};

/** The x402 resource's settings (X402_SETTLE_WAIT_MS, docs/api.md "Paying an invoice from software"). */
export type X402Settings = {
  /** How long a paid request waits for the relayed transaction's receipt before a 202. */
  settleWaitMs: number;
};
