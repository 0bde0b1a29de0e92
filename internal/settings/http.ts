import { z } from "zod";
import { isAddressOrBlock, optionalUrl, port } from "./values.ts";

/** Where the API listens and how it treats its clients: the public and operational ports, proxies, timeouts, logs. Part of internal/env.ts's schema; `.env.example` documents each. */
export const httpSettings = {
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** `json` or `pretty`; unset: pretty on a terminal, JSON otherwise (internal/logFormat.ts). */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  PORT: port.default(3000),
  /** Interface the API and the indexer's HTTP server bind to; loopback unless exposed on purpose. */
  HOST: z.string().min(1).default("127.0.0.1"),
  BASE_URL: optionalUrl,
  PAY_URL: optionalUrl,
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
  /** Slow clients: all headers within this, the whole request within the next, idle keep-alive. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /**
   * Bearer token for the operational endpoints (`/metrics` of the API and the worker, the
   * indexer's `/graphql` and `/sql`, the email capture) from anywhere but this machine itself,
   * and on a published API port (see opsTrustLocal, internal/env.ts) from anywhere at all;
   * unset: local only.
   */
  OPS_TOKEN: z.string().min(16, "must be at least 16 characters (openssl rand -hex 32)").optional(),
  /**
   * The API's operational listener, always on 127.0.0.1 (never HOST): `/metrics` and, on a
   * local chain, the email capture, for this machine only; a reverse proxy to PORT never
   * reaches it. 0 or unset: none. `npm start` defaults it to 9465.
   */
  OPS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** The worker's Prometheus listener (`GET /metrics`) on HOST; 0 or unset: none. `npm start` defaults it to 9464. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
};
