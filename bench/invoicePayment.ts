// One of our invoices created and paid on a benchmark's stack, timed: receipt → the transfer's
// row in the indexer's table, and receipt → status `paid` (bench/baseVolume.ts,
// bench/busyChainSweeps.ts, bench/restart.ts).
import type pg from "pg";
import { type Account, type Address, createPublicClient, createWalletClient, http } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { waitFor } from "../internal/process.ts";

/**
 * A 1.00 USDC invoice, not sent, with a managed wallet (and `extra` fields: a webhook_url;
 * `headers`: a claimed merchant's key).
 */
export async function createBenchInvoice(
  apiUrl: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ invoice_id: string; invoice_url: string; deposit_address: Address }> {
  const response = await fetch(`${apiUrl}/api/invoices`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({
      merchant_email: "bench@example.com",
      merchant_name: "Bench",
      merchant_address: "1 Road",
      vendor_email: "v@example.com",
      vendor_name: "Vendor",
      line_items: [{ description: "x", quantity: 1, unit_price: "1.00" }],
      due_date: "2099-01-01",
      wallet_type: "managed",
      send_now: false,
      ...extra,
    }),
  });
  return (await response.json()) as {
    invoice_id: string;
    invoice_url: string;
    deposit_address: Address;
  };
}

export type PaymentTiming = {
  invoice: { id: string; deposit: Address };
  /** Receipt → row (ms), or the limit when not seen within it (then `lateRow`). */
  toRow: number;
  toPaid: number;
  lateRow: boolean;
  latePaid: boolean;
};

/**
 * Creates an invoice, pays it 1.00 USDC from `payer` and times receipt → row (when `rows` is
 * given: the database and the indexer's schema) and receipt → `paid`. A payment not seen within
 * `lateMs` counts at that value and as late, so one stall cannot end a run.
 */
export async function payBenchInvoice(options: {
  apiUrl: string;
  rpcUrl: string;
  payer: Account;
  rows?: { db: pg.Client; schema: string };
  lateMs: number;
}): Promise<PaymentTiming> {
  const { apiUrl, rows, lateMs } = options;
  const client = createPublicClient({ chain: base, transport: http(options.rpcUrl) });
  const payer = createWalletClient({
    chain: base,
    transport: http(options.rpcUrl),
    account: options.payer,
  });
  const invoice = await createBenchInvoice(apiUrl);
  const hash = await payer.writeContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "transfer",
    args: [invoice.deposit_address, 1_000_000n],
  });
  await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const t0 = performance.now();
  const seen = { row: t0 + lateMs, paid: t0 + lateMs };
  const late = { row: false, paid: false };
  await Promise.all([
    rows
      ? waitFor(
          "the row",
          async () => {
            // By the indexed recipient: tx_hash has no index, and a scan every 5 ms of a table
            // holding a history (bench/restart.ts) would load the machine being measured.
            const { rowCount } = await rows.db.query(
              `select 1 from ${rows.schema}.usdc_transfer where "to" = $1 and tx_hash = $2`,
              [invoice.deposit_address.toLowerCase(), hash],
            );
            if (rowCount) seen.row = performance.now();
            return rowCount;
          },
          { timeoutMs: lateMs, intervalMs: 5 },
        ).catch(() => (late.row = true))
      : undefined,
    waitFor(
      "paid",
      async () => {
        const body = (await (
          await fetch(`${apiUrl}/api/invoices/${invoice.invoice_id}/status`)
        ).json()) as { status: string };
        if (body.status === "paid") seen.paid = performance.now();
        return body.status === "paid";
      },
      { timeoutMs: lateMs, intervalMs: 5 },
    ).catch(() => (late.paid = true)),
  ]);
  return {
    invoice: { id: invoice.invoice_id, deposit: invoice.deposit_address },
    toRow: seen.row - t0,
    toPaid: seen.paid - t0,
    lateRow: late.row,
    latePaid: late.paid,
  };
}
