import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "./fixtures.ts";

type Created = { invoice_id: string; slug: string; deposit_address: Address };
type Status = { status: string; paid_amount?: string };

/** A merchant's opt-in underpayment tolerance, on the real stack. */
describe("underpayment tolerance", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let merchant: Merchant;
  const relayerPrivateKey = generatePrivateKey();

  beforeAll(async () => {
    await chain.snapshot();
    await chain.client.setBalance({
      address: privateKeyToAccount(relayerPrivateKey).address,
      value: parseEther("1"),
    });
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { RELAYER_PRIVATE_KEY: relayerPrivateKey },
    });
    merchant = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  const setTolerance = async (value: string) => {
    const response = await stack.request("/api/merchant/settings", {
      method: "PATCH",
      json: { underpayment_tolerance: value },
      headers: bearer(merchant.key),
    });
    expect(response.status).toBe(200);
  };
  /** An invoice of 10.00, the claimed merchant's (with its key) or a new open-mode merchant's. */
  const create = async (claimed: boolean): Promise<Created> => {
    const body = invoiceRequest({
      ...(claimed ? { merchant_email: merchant.email } : {}),
      line_items: [{ description: "Work", quantity: 1, unit_price: "10.00" }],
    });
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: body,
      ...(claimed ? { headers: bearer(merchant.key) } : {}),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Created;
  };
  const statusOf = async (invoice: Created) =>
    (await (await stack.request(`/api/invoices/${invoice.invoice_id}/status`)).json()) as Status;
  /** Pays `units`, then waits for reconcile to count it (the status shows the amount). */
  const pay = async (invoice: Created, units: bigint, account: number) => {
    await chain.payUsdc(devAccount(account), invoice.deposit_address, units);
    return waitFor(
      "the payment counted",
      async () => {
        const status = await statusOf(invoice);
        return status.paid_amount ? status : undefined;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
  };

  test("settings: 0.00 by default; refused above 10.00, as an integer or a number", async () => {
    const read = await stack.request("/api/merchant/settings", { headers: bearer(merchant.key) });
    expect(await read.json()).toEqual({ underpayment_tolerance: "0.00" });
    for (const bad of ["10.01", "1", 0.5, "-0.10", "0.1234567"]) {
      const response = await stack.request("/api/merchant/settings", {
        method: "PATCH",
        json: { underpayment_tolerance: bad },
        headers: bearer(merchant.key),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { fields: { path: string }[] } };
      expect(body.error.fields.map((f) => f.path)).toEqual(["underpayment_tolerance"]);
    }
  });

  test("paid short by less than the tolerance: paid, paid_amount what arrived, the sweep moves exactly that", async () => {
    await setTolerance("0.50");
    const invoice = await create(true);
    const status = await pay(invoice, 9_600_000n, 1);
    expect(status).toEqual(expect.objectContaining({ status: "paid", paid_amount: "9.60" }));
    const details = (await (
      await stack.request(`/api/invoices/${invoice.invoice_id}`, { headers: bearer(merchant.key) })
    ).json()) as { wallet_address: Address };
    // The merchant sees the tolerance applied, and that nothing is due.
    expect(details).toEqual(
      expect.objectContaining({
        paid_amount: "9.60",
        amount_due: "0.00",
        underpayment_tolerance: "0.50",
      }),
    );
    // Settled: what arrived is swept to the managed wallet, once.
    await waitFor(
      "the tolerated payment swept",
      async () => (await chain.usdcBalance(details.wallet_address)) === 9_600_000n,
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
    // The page asks for nothing more.
    const page = await (await stack.request(`/i/${invoice.slug}`)).text();
    expect(page).not.toContain("ethereum:");
  });

  test("paid short by more than the tolerance: partial", async () => {
    await setTolerance("0.50");
    const invoice = await create(true);
    expect(await pay(invoice, 9_490_000n, 2)).toEqual(
      expect.objectContaining({ status: "partial", paid_amount: "9.49" }),
    );
  });

  test("the default 0: a cent short is partial, as spec §3.1 has it", async () => {
    const invoice = await create(false);
    expect(await pay(invoice, 9_990_000n, 3)).toEqual(
      expect.objectContaining({ status: "partial", paid_amount: "9.99" }),
    );
  });

  test("an invoice keeps the tolerance it was issued with", async () => {
    await setTolerance("0.50");
    const invoice = await create(true);
    await setTolerance("0.00");
    expect(await pay(invoice, 9_900_000n, 4)).toEqual(
      expect.objectContaining({ status: "paid", paid_amount: "9.90" }),
    );
    // And a new one follows the new setting.
    const later = await create(true);
    expect(await pay(later, 9_900_000n, 5)).toEqual(
      expect.objectContaining({ status: "partial", paid_amount: "9.90" }),
    );
  });
});
