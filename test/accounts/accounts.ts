import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.ts";
import { claimWithNewKey } from "../../db/queries/accounts.ts";
import { apiKeyRecord, newApiKey } from "../../domain/apiKeys.ts";
import { merchantNameKey } from "../../domain/merchantName.ts";
import type { TestStack } from "../helpers/stack.ts";

export type Merchant = { email: string; key: string; merchantId: string; keyId: string };

/**
 * A merchant whose email is claimed, with a write key: what `remit merchants add` does (the
 * CLI itself is tested in keysMode.test.ts), straight on the stack's database.
 */
export async function claimedMerchant(
  db: Db,
  options: { email?: string; name?: string } = {},
): Promise<Merchant> {
  const email = options.email ?? `claimed-${randomUUID()}@example.com`;
  const key = newApiKey("write");
  const { merchantId, keyId } = await db.transaction().execute((trx) =>
    claimWithNewKey(trx, {
      email,
      ...(options.name
        ? { registered: { name: options.name, nameKey: merchantNameKey(options.name) } }
        : {}),
      actor: "operator",
      key: { ...apiKeyRecord(key), name: "test" },
      requestId: null,
    }),
  );
  return { email, key, merchantId, keyId };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A read-only key of `merchant`, made through the API. */
export async function readKeyOf(stack: TestStack, merchant: Merchant): Promise<string> {
  const response = await stack.request("/api/keys", {
    method: "POST",
    json: { name: "reader", scope: "read" },
    headers: bearer(merchant.key),
  });
  if (response.status !== 201) throw new Error(`read key: ${response.status}`);
  return ((await response.json()) as { key: string }).key;
}

/** Registers `address` as a payout wallet of `merchant`, through the API. */
export async function registerWallet(
  stack: TestStack,
  merchant: Merchant,
  address: string,
): Promise<Response> {
  return stack.request("/api/merchant/wallets", {
    method: "POST",
    json: { address },
    headers: bearer(merchant.key),
  });
}

type Json = Record<string, unknown>;

/** Status and parsed body of a response. */
export async function answer(response: Response): Promise<{ status: number; body: Json }> {
  const text = await response.text();
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

/** The `error.code` of an error body. */
export const codeOf = (body: Json): unknown => (body.error as Json | undefined)?.code;
