import { z } from "zod";
import { duration, usdcSetting } from "./values.ts";

/** Moving money: sweeps, dust, refunds, and what the relayer may spend and wait for. Part of internal/env.ts's schema; `.env.example` documents each. */
export const settlementSettings = {
  /** `off`: leave funds on the deposit addresses (see `remit deposits`). */
  SWEEP: z.enum(["on", "off"]).default("on"),
  /**
   * Sweep policy (docs/api.md, "Settlement"): no automatic sweep moves less than this (the
   * relayer's gas must be worth it; docs/operations.md, "Sweeps and dust").
   */
  SWEEP_MIN_AMOUNT: usdcSetting.default(100_000n),
  /** A partial payment is swept once no transfer has arrived for this long. */
  SWEEP_PARTIAL_AFTER: duration.default(6 * 3_600_000),
  /**
   * Extra payments on a `paid` invoice (`confirmed` link) adding up to less than this are held
   * for refund and leave the status as it is; changes below it are coalesced in notifications.
   */
  EXCESS_DUST_THRESHOLD: usdcSetting.default(10_000n),
  /** The smallest refund Remit pays: below it the relayer's gas could cost more than it returns. */
  REFUND_MINIMUM: usdcSetting.default(100_000n),
  /** A relayer transaction not mined this many blocks after it was sent is re-sent at a higher fee. */
  RELAYER_REPLACE_AFTER_BLOCKS: z.coerce.number().int().min(1).max(1000).default(3),
  /**
   * Gas the relayer may spend per UTC day on everything it pays for (sweeps, refunds, payers'
   * gasless payments), counted in the database across every process (docs/operations.md,
   * "The relayer's gas budget"). Refunds and gasless payments over it are refused; sweeps
   * count but are never refused. 0: the relayer pays for sweeps only.
   */
  RELAYER_DAILY_GAS_BUDGET: z.coerce
    .bigint()
    .min(0n)
    .max(10n ** 12n)
    .default(100_000_000n),
  /** The same, per merchant (every key of it, and open-mode calls on its invoices and links); 0: no per-merchant limit. */
  RELAYER_MERCHANT_DAILY_GAS_BUDGET: z.coerce
    .bigint()
    .min(0n)
    .max(10n ** 12n)
    .default(20_000_000n),
  /** How long `POST /api/payments/{slug}/authorizations` waits for the relayer's submission before a 202. */
  RELAYER_SUBMIT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /** How long a paid x402 request waits for its relayed transaction's receipt before a 202. */
  X402_SETTLE_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(30_000),
};
