import { randomBytes } from "node:crypto";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  isAddress,
} from "viem";
import type { HDAccount } from "viem/accounts";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { rpcRequest } from "../chain/rpc.ts";
import { DEV_MNEMONIC, USDC_ADDRESS } from "../domain/constants.ts";
import { formatUsdc, parseTypedUsdc } from "../domain/money.ts";
import {
  transferAuthorizationTypedData,
  transferWithAuthorizationArgs,
} from "../domain/usdcAuthorization.ts";
import { hdAccountOf } from "../internal/hdAccount.ts";
import { unreachable } from "./api.ts";
import { CliError, EXIT } from "./io.ts";

export type DevPayOptions = {
  api: string;
  rpcUrl: string;
  /** Which of anvil's development accounts pays. */
  from: number;
  gasless: boolean;
};

/** The development account that submits a gasless payment and pays its gas (anvil's 8). */
const SUBMITTER_INDEX = 8;

/** Where a payment goes, and where its status can be read when it is for a page's slug. */
export type PayTarget = { address: Address; statusUrl: string | null };

/**
 * Where `target` says to pay: an address as it is; a hosted page's URL (`…/i/{slug}`,
 * `…/pay/{slug}`) or a bare slug, by the deposit address that page shows.
 */
async function resolvePayTarget(api: string, target: string): Promise<PayTarget> {
  if (isAddress(target, { strict: false })) return { address: getAddress(target), statusUrl: null };
  const slug =
    target
      .replace(/[?#].*$/, "")
      .split("/")
      .filter(Boolean)
      .at(-1) ?? "";
  const origin = /^https?:\/\//.test(target) ? new URL(target).origin : api.replace(/\/+$/, "");
  const pages = /^https?:\/\//.test(target)
    ? [target]
    : [`${origin}/i/${slug}`, `${origin}/pay/${slug}`];
  for (const page of pages) {
    const response = await fetch(page).catch((error: unknown) => {
      throw unreachable(page, error);
    });
    const found = /data-deposit-address="(0x[0-9a-fA-F]{40})"/.exec(await response.text());
    if (response.ok && found?.[1])
      return {
        address: getAddress(found[1]),
        statusUrl: `${origin}/api/payments/status/${encodeURIComponent(slug)}`,
      };
  }
  throw new CliError(`no invoice or payment link page found for ${target}`, EXIT.invalid);
}

/** Waits until Remit reports `hash` as the latest payment of the slug, and returns the status. */
async function statusAfter(statusUrl: string, hash: Hex): Promise<string | null> {
  const deadline = Date.now() + 30_000;
  let last: { status?: string; tx_hash?: string } = {};
  while (Date.now() < deadline) {
    const response = await fetch(statusUrl).catch(() => null);
    if (response?.ok) {
      last = (await response.json()) as typeof last;
      if (last.tx_hash?.toLowerCase() === hash.toLowerCase()) return last.status ?? null;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last.status ?? null;
}

/** An EIP-3009 authorization signed by `payer`, submitted (and paid for) by another dev account. */
async function payGasless(
  rpcUrl: string,
  payer: HDAccount,
  to: Address,
  value: bigint,
): Promise<Hex> {
  const message = {
    from: payer.address,
    to,
    value,
    validAfter: 0n,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 600),
    nonce: `0x${randomBytes(32).toString("hex")}` as Hex,
  };
  const signature = await payer.signTypedData(transferAuthorizationTypedData(message));
  const submitter = hdAccountOf(DEV_MNEMONIC, { addressIndex: SUBMITTER_INDEX });
  return createWalletClient({
    account: submitter,
    chain: base,
    transport: http(rpcUrl),
  }).writeContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "transferWithAuthorization",
    args: transferWithAuthorizationArgs(message, signature),
  });
}

/**
 * `remit dev pay`: pays USDC from one of the local chain's development accounts, as a payer's
 * wallet would: a plain `transfer`, or (gasless) an EIP-3009 authorization the payer signs and
 * another account submits. Refuses any chain but the local anvil: these keys are public.
 */
export async function devPay(target: string, amount: string, options: DevPayOptions) {
  const version = await rpcRequest<string>(options.rpcUrl, "web3_clientVersion", []).catch(
    (error: unknown) => {
      throw new CliError(
        `cannot reach the local chain at ${options.rpcUrl} (${(error as Error).message}): is npm start running? Point --rpc-url or ANVIL_PORT at it`,
        EXIT.unavailable,
      );
    },
  );
  if (!/^anvil\//i.test(version)) {
    throw new CliError(
      `${options.rpcUrl} is ${version}, not the local anvil: remit dev pay only pays with development keys on the local chain`,
      EXIT.invalid,
    );
  }
  // Typed by a person: "500" means 500 USDC, as at the prompts (parseTypedUsdc).
  const parsed = parseTypedUsdc(amount);
  if (!parsed.ok) throw new CliError(`amount: ${parsed.message}`, EXIT.invalid);
  const value = parsed.units;
  if (value <= 0n) throw new CliError("amount: must be more than 0", EXIT.invalid);
  const { address: to, statusUrl } = await resolvePayTarget(options.api, target);
  const payer = hdAccountOf(DEV_MNEMONIC, { addressIndex: options.from });
  const chain = createPublicClient({ chain: base, transport: http(options.rpcUrl) });
  const balance = await chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "balanceOf",
    args: [payer.address],
  });
  if (balance < value)
    throw new CliError(
      `development account ${options.from} (${payer.address}) holds ${formatUsdc(balance)} USDC, less than ${formatUsdc(value)}`,
      EXIT.invalid,
    );

  const hash = options.gasless
    ? await payGasless(options.rpcUrl, payer, to, value)
    : await createWalletClient({
        account: payer,
        chain: base,
        transport: http(options.rpcUrl),
      }).writeContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "transfer",
        args: [to, value],
      });
  const receipt = await chain.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== "success")
    throw new CliError(`the payment ${hash} reverted`, EXIT.invalid);
  return {
    // What Remit reports once it has counted this payment (waited for, up to 30 s).
    status: statusUrl ? await statusAfter(statusUrl, hash) : null,
    tx_hash: hash,
    block_number: Number(receipt.blockNumber),
    from: payer.address,
    to,
    amount: formatUsdc(value),
    gasless: options.gasless,
  };
}
