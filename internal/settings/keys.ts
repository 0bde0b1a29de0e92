import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import { z } from "zod";
import { address, secretKey } from "./values.ts";

/** The secrets: the deposit seed (or its public key), the relayer key, the key sealing webhook secrets. Part of internal/env.ts's schema; `.env.example` documents each. */
export const keySettings = {
  /** The BIP-39 seed every deposit address and managed wallet derives from. */
  DEPOSIT_MNEMONIC: z
    .string()
    .refine(
      (words) => validateMnemonic(words.trim(), wordlist),
      "must be a valid BIP-39 mnemonic (12–24 English words)",
    )
    .optional(),
  /** Set by `npm start` for the API: the deposit addresses' extended public key, so the API can never sign. */
  DEPOSIT_XPUB: z.string().startsWith("xpub").optional(),
  /** Pays the gas of sweeps. Locally: anvil's account 9. Required with BASE_RPC_URL. */
  RELAYER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
    .optional(),
  /** Set by `npm start` for the API (health shows its ETH): the relayer's address only. */
  RELAYER_ADDRESS: address.optional(),
  /**
   * AES-256-GCM key sealing webhook secrets at rest: 32 bytes, hex or base64. Required with
   * BASE_RPC_URL; locally generated once into DATA_DIR. Only the API and the worker get it.
   */
  WEBHOOK_SECRET_KEY: secretKey.optional(),
  /** Former keys (comma-separated), still accepted while `npm start` re-seals rows under the new one. */
  WEBHOOK_SECRET_KEY_PREVIOUS: z
    .string()
    .refine(
      (value) => value.split(",").every((key) => secretKey.safeParse(key.trim()).success),
      "must be comma-separated 32-byte keys, hex or base64",
    )
    .optional(),
};
