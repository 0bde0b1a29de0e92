import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import { z } from "zod";
import { publicPortTrustsLocal } from "./operationalAccess.ts";

const port = z.coerce.number().int().min(1).max(65_535);
// parseEnv drops empty variables first, so `NAME=` means "not set".
const optionalUrl = z.url().optional();
const rateBudget = z.coerce.number().int().min(0).max(1_000_000);
/** 32 bytes written as 64 hex digits or as base64. */
const secretKey = z
  .string()
  .refine(
    (value) =>
      /^[0-9a-fA-F]{64}$/.test(value) ||
      (/^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, "base64").length === 32),
    "must be 32 bytes: 64 hex digits or 44 characters of base64 (openssl rand -hex 32)",
  );
/** One JSON-RPC URL, or several separated by commas (used in order, with fallback). */
const rpcUrlList = z
  .string()
  .refine(
    (list) => splitRpcUrls(list).length > 0 && splitRpcUrls(list).every(isHttpUrl),
    "must be an http(s) URL, or several separated by commas",
  )
  .optional();
/**
 * A USDC amount in decimal ("0.10", "1", "0.000001"), as base units. (internal/ sits below
 * domain/, so the conversion is spelled out here rather than borrowed from domain/money.ts.)
 */
const usdcSetting = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,6})?$/, "must be a USDC amount such as 0.10 (up to 6 decimals)")
  .transform((value) => {
    const [whole = "0", fraction = ""] = value.split(".");
    return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
  });
/** A duration: a number of seconds, or a number with s, m, h or d ("90s", "30m", "6h"), in ms. */
const duration = z
  .string()
  .regex(/^\d{1,9}(s|m|h|d)?$/, "must be a duration such as 6h, 30m, 90s or a number of seconds")
  .transform((value) => {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[value.slice(-1)];
    return unit ? Number(value.slice(0, -1)) * unit : Number(value) * 1_000;
  });
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");

/**
 * Every setting Remit reads from the environment, parsed once at start. A bad value stops the
 * process with a message that names the variable (see `parseEnv`). `.env.example` documents
 * each of them.
 */
const envSchema = z
  .object({
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    /** `json` or `pretty`; unset: pretty on a terminal, JSON otherwise (internal/logFormat.ts). */
    LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
    PORT: port.default(3000),
    /** Interface the API and the indexer's HTTP server bind to; loopback unless exposed on purpose. */
    HOST: z.string().min(1).default("127.0.0.1"),
    BASE_URL: optionalUrl,
    PAY_URL: optionalUrl,
    DATA_DIR: z.string().min(1).default("./.data"),
    DATABASE_URL: optionalUrl,
    EMBEDDED_PG_PORT: port.default(54320),
    /** Mainnet mode: follow real Base through these RPCs; no anvil is started. */
    BASE_RPC_URL: rpcUrlList,
    /** Fork mode: anvil forks this RPC (real Base, or any chain 8453 with USDC). */
    BASE_FORK_URL: optionalUrl,
    /** Fork mode: the block to fork at. Default: the upstream's latest at the first start. */
    BASE_FORK_BLOCK_NUMBER: z.coerce.number().int().min(1).optional(),
    /** Fork mode: an address holding USDC upstream; impersonated to fund the dev accounts. */
    USDC_WHALE: address.optional(),
    ANVIL_PORT: port.default(8545),
    ANVIL_BLOCK_TIME: z.coerce.number().int().min(0).max(60).default(1),
    INDEXER_PORT: port.default(42069),
    /** Milliseconds between the indexer's polls for new blocks; Ponder's minimum is 100. */
    PONDER_POLLING_INTERVAL: z.coerce.number().int().min(100).max(60_000).optional(),
    START_BLOCK: z.coerce.number().int().min(0).optional(),
    /**
     * The indexer learns of new blocks from this WebSocket RPC (eth_subscribe newHeads) instead
     * of polling BASE_RPC_URL every PONDER_POLLING_INTERVAL; Ponder falls back to polling by
     * itself when it fails. Default: the local anvil's own (it serves WebSocket on its HTTP
     * port) on the simulated chain and in fork mode, none (polling) in mainnet mode; `off`
     * polls everywhere (docs/operations.md, "How the indexer hears of new blocks").
     */
    BASE_WS_URL: z.union([z.literal("off"), z.url({ protocol: /^wss?$/ })]).optional(),
    /** Set by `npm start` for its children: the JSON-RPC URL(s) of the chain in use. */
    CHAIN_RPC_URL: rpcUrlList,
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
    /** Real SendGrid when set; otherwise emails go to the local capture outbox. */
    SENDGRID_API_KEY: z.string().min(1).optional(),
    SENDGRID_API_URL: z.url().optional(),
    EMAIL_FROM: z.string().min(3).default("Remit <invoices@remit.localhost>"),
    /** Blocks a transfer needs (its own included) before it counts. Default: 1 locally, 3 on Base. */
    CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).optional(),
    /**
     * Block explorer for transaction links in emails and pages. Default: basescan.org in
     * mainnet mode only; a local or forked chain's transactions are on no public explorer.
     */
    EXPLORER_URL: z.url().optional(),
    /** Allow webhooks to loopback/private addresses and plain http. Default: only locally. */
    ALLOW_PRIVATE_WEBHOOKS: z.enum(["true", "false"]).optional(),
    /** First webhook retry delay; doubles per attempt (capped at 6 h), ±50 % jitter. */
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
    /** The whole of one webhook delivery (connect, answer, body): cut at this deadline. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(15_000).default(15_000),
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
    /** Pays the gas of sweeps. Locally: anvil's account 9. Required with BASE_RPC_URL. */
    RELAYER_PRIVATE_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
      .optional(),
    /** Set by `npm start` for the API (health shows its ETH): the relayer's address only. */
    RELAYER_ADDRESS: address.optional(),
    /**
     * Which of the three processes this `npm start` runs: one host runs the indexer, any
     * number run `api,worker` replicas against the same database (docs/operations.md, "Production").
     */
    PROCESSES: z
      .string()
      .default("indexer,api,worker")
      .transform((list) => list.split(",").map((name) => name.trim()))
      .pipe(
        z
          .array(z.enum(["indexer", "api", "worker"], "must list indexer, api and/or worker"))
          .min(1),
      ),
    /** The API's database pool: connections per process, and how long a request may wait for one. */
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
    // Generous enough for a burst of creations queueing on one merchant's numbering lock (their
    // PDFs are rendered before it); bounded, so a stuck database is a 503, never a hang.
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    /**
     * Threads rendering invoice PDFs in the API process (pdf/renderPool.ts); default: the cores.
     * They start under load and stop after 30 s idle (PDF_RENDER_WARM_THREADS stay).
     */
    PDF_RENDER_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(() => availableParallelism()),
    /**
     * Nice value of the PDF render threads (0–19, per thread on Linux): above the API's own
     * 0, so the kernel runs the event loop (status polls) before a render (docs/architecture.md).
     */
    PDF_RENDER_NICE: z.coerce.number().int().min(0).max(19).default(0),
    /**
     * Render threads kept while no invoice is being created (each holds pdfmake and its fonts,
     * ~50 MB). 0: the first render after a quiet spell starts a thread (~0.5 s more for that
     * one invoice); threads stay while renders keep coming and stop after 30 s idle.
     */
    PDF_RENDER_WARM_THREADS: z.coerce.number().int().min(0).max(64).default(0),
    /**
     * Where `npm start` keeps the JavaScript it bundles from the sources (platform/build.mjs,
     * which reads it itself: it runs before this module). Default node_modules/.cache/remit.
     */
    REMIT_BUILD_CACHE: z.string().min(1).optional(),
    /**
     * "vite": the indexer builds its code with Ponder's own Vite build, as before bundling,
     * instead of executing the bundles (indexer/prebuilt/; read by platform/children.ts).
     */
    PONDER_BUILD: z.enum(["bundled", "vite"]).optional(),
    /** Cap on one API statement (lock waits included): past it the request gets a 503. */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    /**
     * The worker's slots per queue (worker/queues.ts): payment detection, emails, webhook
     * deliveries, chain transactions (sweeps). Each queue has its own; none can take another's.
     */
    WORKER_PAYMENTS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
    WORKER_EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
    WORKER_WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
    WORKER_CHAIN_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
    /** The worker's slots for invoice schedules and reminders (each issue renders a PDF). */
    WORKER_SCHEDULES_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
    /**
     * `on`: the scheduler and reminders read the time from the test clock, an offset stored in
     * the database (app.test_clock), so tests step through months (docs/development.md, "The test
     * clock"). Refused with BASE_RPC_URL: never on a real chain.
     */
    TEST_CLOCK: z.enum(["on", "off"]).default("off"),
    /** A relayer transaction not mined this many blocks after it was sent is re-sent at a higher fee. */
    RELAYER_REPLACE_AFTER_BLOCKS: z.coerce.number().int().min(1).max(1000).default(3),
    /**
     * Bearer token for the operational endpoints (`/metrics` of the API and the worker, the
     * indexer's `/graphql` and `/sql`, the email capture) from anywhere but this machine itself,
     * and on a published API port (see opsTrustLocal) from anywhere at all; unset: local only.
     */
    OPS_TOKEN: z
      .string()
      .min(16, "must be at least 16 characters (openssl rand -hex 32)")
      .optional(),
    /** Interface the indexer's HTTP server (GraphQL, SQL, Ponder's metrics) binds to: loopback unless opened on purpose. */
    INDEXER_HOST: z.string().min(1).default("127.0.0.1"),
    /**
     * The API's operational listener, always on 127.0.0.1 (never HOST): `/metrics` and, on a
     * local chain, the email capture, for this machine only; a reverse proxy to PORT never
     * reaches it. 0 or unset: none. `npm start` defaults it to 9465.
     */
    OPS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    /** The worker's Prometheus listener (`GET /metrics`) on HOST; 0 or unset: none. `npm start` defaults it to 9464. */
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    INDEXER_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,40}$/, "lowercase letters, digits and _ only")
      .optional(),
    /**
     * How many reverse proxies in front of the API append to X-Forwarded-For. 0: the header is
     * ignored and the socket's peer is the client (otherwise anyone could pick their address).
     */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    /**
     * The addresses (IPs or CIDR blocks, comma-separated) of those proxies: X-Forwarded-For is
     * believed only from them, so a client reaching the port directly cannot forge its address.
     * Default: loopback (a proxy on the same host).
     */
    TRUSTED_PROXIES: z
      .string()
      .default("127.0.0.0/8,::1")
      .transform((list) =>
        list
          .split(",")
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ""),
      )
      .refine(
        (entries) => entries.every(isAddressOrBlock),
        "must be IP addresses or CIDR blocks, comma-separated (10.0.0.0/8,::1)",
      ),
    /** Per client IP and minute (0: no limit): status polling, invoice creation, link creation. */
    RATE_LIMIT_STATUS_PER_MIN: rateBudget.default(600),
    RATE_LIMIT_INVOICES_PER_MIN: rateBudget.default(60),
    RATE_LIMIT_LINKS_PER_MIN: rateBudget.default(120),
    /** Per API key and minute over every route; redeliveries per key and per client IP; claim requests per client IP. */
    RATE_LIMIT_KEY_PER_MIN: rateBudget.default(600),
    RATE_LIMIT_REDELIVERIES_PER_MIN: rateBudget.default(10),
    RATE_LIMIT_CLAIMS_PER_MIN: rateBudget.default(5),
    /**
     * `open`: the spec's key-less creation (a claimed merchant still needs its key); `keys`: every
     * /api route but the public ones needs one. Default: open locally and in fork mode, keys with
     * BASE_RPC_URL (docs/api.md, "Who may call what").
     */
    AUTH_MODE: z.enum(["open", "keys"]).optional(),
    /**
     * `open`: anyone can claim an account for an email they read (POST /api/merchants/claim);
     * `closed`: only the operator adds merchants (`remit merchants add`), and claims only re-key
     * existing accounts. Default: open locally, closed with BASE_RPC_URL.
     */
    MERCHANT_SIGNUP: z.enum(["open", "closed"]).optional(),
    /** Gasless payment authorizations per client IP and minute, and per invoice or link and minute. */
    RATE_LIMIT_GASLESS_PER_MIN: rateBudget.default(10),
    /** Requests per client IP and minute on the refund claim page ({PAY_URL}/refund/{token}). */
    RATE_LIMIT_REFUNDS_PER_MIN: rateBudget.default(20),
    /** Transaction lookups (GET /api/transactions/{tx_hash}, the pages' "Paid but not showing?") per client IP and minute. */
    RATE_LIMIT_TX_LOOKUP_PER_MIN: rateBudget.default(30),
    GASLESS_PER_SLUG_PER_MIN: rateBudget.default(10),
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
    /** The smallest refund Remit pays: below it the relayer's gas could cost more than it returns. */
    REFUND_MINIMUM: usdcSetting.default(100_000n),
    /** Refunds one merchant may request per hour, all its keys and open-mode calls together; 0: no limit. */
    REFUNDS_PER_MERCHANT_PER_HOUR: rateBudget.default(30),
    /** How long `POST /api/payments/{slug}/authorizations` waits for the relayer's submission before a 202. */
    RELAYER_SUBMIT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
    /** Requests to the x402 resource (GET /api/x402/{slug}) per client IP and minute; 0: no limit. */
    RATE_LIMIT_X402_PER_MIN: rateBudget.default(30),
    /** How long a paid x402 request waits for its relayed transaction's receipt before a 202. */
    X402_SETTLE_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(30_000),
    /** Slow clients: all headers within this, the whole request within the next, idle keep-alive. */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
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

/** The settings each chain mode needs, and the ones it cannot combine. */
function requireModeSettings(
  env: {
    TEST_CLOCK?: "on" | "off";
    BASE_RPC_URL?: string;
    BASE_FORK_URL?: string;
    BASE_FORK_BLOCK_NUMBER?: number;
    USDC_WHALE?: string;
    START_BLOCK?: number;
  },
  context: z.RefinementCtx,
): void {
  const problem = (path: string, message: string) =>
    context.addIssue({ code: "custom", path: [path], message });
  if (env.BASE_RPC_URL && env.BASE_FORK_URL)
    problem("BASE_FORK_URL", "cannot be combined with BASE_RPC_URL: fork mode or mainnet mode");
  if (env.BASE_RPC_URL && env.START_BLOCK === undefined)
    problem(
      "START_BLOCK",
      "is required with BASE_RPC_URL: the go-live block, so a new deployment does not index years of USDC transfers",
    );
  if (env.BASE_FORK_URL && !env.USDC_WHALE)
    problem(
      "USDC_WHALE",
      "is required with BASE_FORK_URL: an address holding USDC on the forked chain, impersonated to fund the dev accounts",
    );
  if (!env.BASE_FORK_URL && env.BASE_FORK_BLOCK_NUMBER !== undefined)
    problem("BASE_FORK_BLOCK_NUMBER", "only applies with BASE_FORK_URL");
  if (env.BASE_RPC_URL && env.TEST_CLOCK === "on")
    problem("TEST_CLOCK", "is a development and test setting: refused with BASE_RPC_URL");
}

/** `"https://a, https://b"` → `["https://a", "https://b"]`. */
export function splitRpcUrls(list: string): string[] {
  return list
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url !== "");
}

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`. */
function isAddressOrBlock(entry: string): boolean {
  const [network = "", prefix] = entry.split("/");
  const family = isIP(network);
  if (family === 0) return false;
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
  );
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

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
