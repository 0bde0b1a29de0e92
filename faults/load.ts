import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Account, Address } from "viem";
import { usdcToBaseUnits } from "../domain/money.ts";
import type { Chain } from "../test/helpers/chain.ts";
import { invoiceRequest } from "../test/invoices/fixtures.ts";

/** Each creator's pause between invoices. */
const CREATION_PAUSE_MS = 400;

export type CreatedInvoice = {
  invoiceId: string;
  number: string;
  depositAddress: Address;
  total: bigint;
  idempotencyKey: string;
};

export type Payment = { invoiceId: string; txHash: string; amount: bigint };

export type LoadResult = {
  /** Every creation the API acknowledged (201, or its idempotent replay). */
  invoices: CreatedInvoice[];
  /** Every USDC transfer mined to a deposit address. */
  payments: Payment[];
  /** Requests that failed and were retried with the same Idempotency-Key. */
  retries: number;
  /** HTTP statuses and network errors seen along the way, for the report. */
  errors: Record<string, number>;
};

export type LoadOptions = {
  /** Requests go round-robin over these (several API replicas, or one). */
  apiUrls: string[];
  chain: Chain;
  merchantEmail: string;
  webhookUrl: string;
  /** One payer per lane: a lane pays one invoice at a time (no nonce races). */
  payers: Account[];
  /** Concurrent invoice creators. */
  creators?: number;
};

/**
 * What a well-behaved client does while the service is being hurt: it creates invoices
 * (retrying with the same Idempotency-Key on any failure, as the API docs tell clients to) and
 * pays each on chain, every third one in two halves. Runs until `stop()`; then finishes the
 * payments of every invoice it got and resolves with what it did.
 */
export function startLoad(options: LoadOptions) {
  const result: LoadResult = { invoices: [], payments: [], retries: 0, errors: {} };
  const queue: CreatedInvoice[] = [];
  let stopping = false;
  const note = (what: string) => (result.errors[what] = (result.errors[what] ?? 0) + 1);

  let nextApi = 0;
  const apiUrl = () => options.apiUrls[nextApi++ % options.apiUrls.length];

  const createOne = async (): Promise<CreatedInvoice> => {
    const idempotencyKey = randomUUID();
    const body = JSON.stringify(
      invoiceRequest({ merchant_email: options.merchantEmail, webhook_url: options.webhookUrl }),
    );
    const deadline = Date.now() + 180_000;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        result.retries++;
        await delay(Math.min(2_000, 100 * 2 ** attempt));
      }
      if (Date.now() > deadline)
        throw new Error(`invoice creation kept failing (${idempotencyKey})`);
      try {
        const response = await fetch(`${apiUrl()}/api/invoices`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": idempotencyKey },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        if (response.status === 200 || response.status === 201) {
          const created = (await response.json()) as {
            invoice_id: string;
            invoice_number: string;
            deposit_address: Address;
            total_amount: string;
          };
          return {
            invoiceId: created.invoice_id,
            number: created.invoice_number,
            depositAddress: created.deposit_address,
            total: usdcToBaseUnits(created.total_amount),
            idempotencyKey,
          };
        }
        note(`http ${response.status}`);
        if (response.status < 500 && response.status !== 409 && response.status !== 429)
          throw new Error(`creation refused: ${response.status} ${await response.text()}`);
      } catch (error) {
        if ((error as Error).message.startsWith("creation refused")) throw error;
        note(((error as Error).cause as { code?: string })?.code ?? (error as Error).name);
      }
    }
  };

  const payOne = async (payer: Account, to: Address, amount: bigint, invoiceId: string) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const receipt = await options.chain.payUsdc(payer, to, amount);
        result.payments.push({ invoiceId, txHash: receipt.transactionHash, amount });
        return;
      } catch (error) {
        if (attempt > 20) throw error;
        note(`chain ${(error as Error).name}`);
        await delay(500);
      }
    }
  };

  /** Holds on new invoices (payments of those already created go on); see `holdCreation`. */
  let holds = 0;
  const creator = async () => {
    while (!stopping) {
      if (holds > 0) {
        await delay(50);
        continue;
      }
      const invoice = await createOne();
      result.invoices.push(invoice);
      queue.push(invoice);
      // A steady few invoices a second: enough to overlap every fault, few enough to audit.
      await delay(CREATION_PAUSE_MS);
    }
  };

  const lane = async (payer: Account) => {
    for (;;) {
      const invoice = queue.shift();
      if (!invoice) {
        if (stopping && creatorsDone) return;
        await delay(50);
        continue;
      }
      const split = result.invoices.indexOf(invoice) % 3 === 2;
      if (split) {
        const half = invoice.total / 2n;
        await payOne(payer, invoice.depositAddress, half, invoice.invoiceId);
        await payOne(payer, invoice.depositAddress, invoice.total - half, invoice.invoiceId);
      } else {
        await payOne(payer, invoice.depositAddress, invoice.total, invoice.invoiceId);
      }
    }
  };

  let creatorsDone = false;
  const creators = Promise.all(Array.from({ length: options.creators ?? 2 }, creator)).finally(
    () => {
      creatorsDone = true;
    },
  );
  const lanes = Promise.all(options.payers.map(lane));
  const done = Promise.all([creators, lanes]).then(() => result);
  done.catch(() => {});

  return {
    result,
    /** Stops creating; resolves once every created invoice has been paid. */
    stop: async (): Promise<LoadResult> => {
      stopping = true;
      return done;
    },
    /**
     * Stops creating new invoices until the returned function is called; the lanes go on paying
     * what was created. For a wait on the service's recovery: the load does not slow down with
     * the service, so on a slow machine it could keep it busy past any deadline.
     */
    holdCreation: (): (() => void) => {
      holds++;
      let released = false;
      return () => {
        if (!released) holds--;
        released = true;
      };
    },
    /** Resolves once at least `count` invoices exist (to time a fault into the run). */
    created: async (count: number) => {
      while (result.invoices.length < count) {
        await Promise.race([delay(50), done]);
        if (creatorsDone) throw new Error("the load stopped early");
      }
    },
  };
}
