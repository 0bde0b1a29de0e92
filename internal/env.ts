import path from "node:path";
import { z } from "zod";
import { publicPortTrustsLocal } from "./operationalAccess.ts";
import { accessSettings } from "./settings/access.ts";
import { chainSettings, requireModeSettings } from "./settings/chain.ts";
import { deliverySettings } from "./settings/delivery.ts";
import { httpSettings } from "./settings/http.ts";
import { keySettings } from "./settings/keys.ts";
import { processSettings } from "./settings/processes.ts";
import { settlementSettings } from "./settings/settlement.ts";
import { splitRpcUrls } from "./settings/values.ts";

export { splitRpcUrls };

/**
 * Every setting Remit reads from the environment, parsed once at start. A bad value stops the
 * process with a message that names the variable (see `parseEnv`). `.env.example` documents
 * each of them; internal/settings/ groups them by what they configure.
 */
const envSchema = z
  .object({
    ...httpSettings,
    ...processSettings,
    ...chainSettings,
    ...keySettings,
    ...settlementSettings,
    ...deliverySettings,
    ...accessSettings,
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
    path: ["HTTP_HEADERS_TIMEOUT_MS"],
    message: "must not exceed HTTP_REQUEST_TIMEOUT_MS (Node refuses it)",
  })
  .superRefine(requireModeSettings)
  .transform((env) => {
    const localOrigin = `http://localhost:${env.PORT}`;
    const localChain = env.BASE_RPC_URL === undefined;
    const BASE_URL = trimSlash(env.BASE_URL ?? localOrigin);
    const PAY_URL = trimSlash(env.PAY_URL ?? env.BASE_URL ?? localOrigin);
    const opsTrustLocal = publicPortTrustsLocal({
      host: env.HOST,
      trustProxy: env.TRUST_PROXY,
      baseUrl: BASE_URL,
      payUrl: PAY_URL,
      localChain,
    });
    return {
      ...env,
      /**
       * `simulated`: anvil with USDC deployed by us; `fork`: anvil forking BASE_FORK_URL;
       * `mainnet`: no anvil, the indexer follows BASE_RPC_URL.
       */
      chainMode: (env.BASE_RPC_URL ? "mainnet" : env.BASE_FORK_URL ? "fork" : "simulated") as
        | "simulated"
        | "fork"
        | "mainnet",
      /** BASE_RPC_URL as a list (several RPCs are used in order, with fallback). */
      baseRpcUrls: env.BASE_RPC_URL ? splitRpcUrls(env.BASE_RPC_URL) : [],
      DATA_DIR: path.resolve(env.DATA_DIR),
      BASE_URL,
      PAY_URL,
      /**
       * Whether the public port (PORT) serves `/metrics` and the email capture to requests that
       * look local, without OPS_TOKEN: only in the zero-config development set-up (loopback
       * HOST and origins, TRUST_PROXY=0, a local chain). Otherwise a same-host reverse proxy
       * could not be told from this machine, and only OPS_PORT serves them without the token.
       */
      opsTrustLocal,
      /** True when Remit runs its own simulated Base (anvil) instead of following an RPC. */
      localChain,
      // Every poll is an RPC call: fast on a local anvil, costly against a paid Base RPC.
      PONDER_POLLING_INTERVAL: env.PONDER_POLLING_INTERVAL ?? (localChain ? 100 : 250),
      // On Base, see docs/operations.md, "Confirmations on Base": 10 blocks (20 s), well inside the
      // indexer's 30-block reorg window, so a deeper reorg is still seen and reversed.
      CONFIRMATIONS: env.CONFIRMATIONS ?? (localChain ? 1 : BASE_CONFIRMATIONS),
      AUTH_MODE: env.AUTH_MODE ?? (localChain ? "open" : "keys"),
      MERCHANT_SIGNUP: env.MERCHANT_SIGNUP ?? (localChain ? "open" : "closed"),
      ALLOW_PRIVATE_WEBHOOKS: env.ALLOW_PRIVATE_WEBHOOKS
        ? env.ALLOW_PRIVATE_WEBHOOKS === "true"
        : localChain,
      EXPLORER_URL: env.EXPLORER_URL
        ? trimSlash(env.EXPLORER_URL)
        : localChain
          ? null
          : "https://basescan.org",
      /**
       * Where captured emails go when SendGrid is not configured on a local chain; null with
       * SendGrid, and always in mainnet mode (which requires SendGrid: email/productionEmail.ts).
       */
      outboxDir:
        env.SENDGRID_API_KEY || !localChain
          ? null
          : path.join(path.resolve(env.DATA_DIR), "outbox"),
      // The worker reaches the capture on the public port where that serves it to this machine,
      // otherwise on the operational listener (which `npm start` gives both processes).
      SENDGRID_API_URL:
        env.SENDGRID_API_URL ??
        (env.SENDGRID_API_KEY
          ? "https://api.sendgrid.com"
          : `http://127.0.0.1:${opsTrustLocal || !env.OPS_PORT ? env.PORT : env.OPS_PORT}/dev/sendgrid`),
    };
  });

export type Env = z.infer<typeof envSchema>;

/** CONFIRMATIONS' default when following real Base (docs/operations.md, "Confirmations on Base"). */
export const BASE_CONFIRMATIONS = 10;

const trimSlash = (url: string) => url.replace(/\/+$/, "");

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment; throws an EnvError naming each bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable (`DATABASE_URL=` in a .env file) means "not set".
  const set = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(set);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
  );
  throw new EnvError(`invalid environment:\n${problems.join("\n")}`);
}
