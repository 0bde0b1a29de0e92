import type { Address } from "viem";

/** Base mainnet's chain id; the local simulated chain uses it too. */
export const BASE_CHAIN_ID = 8453;

/** Circle's USDC (FiatTokenProxy) on Base. The local chain places the same contract here. */
export const USDC_ADDRESS: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

/** USDC has 6 decimals: 1 USDC = 1_000_000 base units. */
export const USDC_DECIMALS = 6;

/** Anvil's well-known development mnemonic; its ten accounts are funded on the local chain. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";

/** What each development account holds after the local chain is set up: 1,000,000 USDC. */
export const DEV_ACCOUNT_USDC = 1_000_000n * 10n ** BigInt(USDC_DECIMALS);

/** How many of anvil's default accounts are funded. */
export const DEV_ACCOUNT_COUNT = 10;
