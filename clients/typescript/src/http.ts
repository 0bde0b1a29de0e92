import { randomUUID } from "node:crypto";
import { RemitError } from "./errors.js";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export type TransportOptions = {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch?: FetchLike | undefined;
  maxRetries?: number | undefined;
  timeoutMs?: number | undefined;
  maxRetryDelayMs?: number | undefined;
};

export type RequestOptions = {
  /** The `Idempotency-Key` of a creation; one is generated when not given. */
  idempotencyKey?: string;
  /** Cancels the request, its retries and their waits. */
  signal?: AbortSignal;
};

type Call = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  /** Send an Idempotency-Key (the creation routes that honour one). */
  idempotent?: boolean;
  options?: RequestOptions | undefined;
  /** Headers of this route's own (x402's `PAYMENT-SIGNATURE`). */
  headers?: Record<string, string> | undefined;
  /** Error statuses that are an answer of this route, returned rather than thrown (x402's 402). */
  answers?: readonly number[] | undefined;
};

/** Statuses worth retrying: throttled, or a fault of the server or of what is in front of it. */
const RETRYABLE = (status: number) => status === 429 || status === 408 || status >= 500;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** `Retry-After` in seconds (a number of seconds or an HTTP date), when given and sane. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });

/**
 * The HTTP side of the client: one request, its retries and its error. A request is retried
 * (at most `maxRetries` times) on 408, 429, 5xx and on network errors, but only when repeating
 * it cannot do a thing twice: GET, PATCH and DELETE, and a POST carrying an Idempotency-Key. A
 * POST without one (a refund, a send, a rotation) is retried only on 429, which the API answers
 * before doing anything. The wait is the answer's `Retry-After` when it gives one, else an
 * exponential backoff with jitter; a `Retry-After` beyond `maxRetryDelayMs` is not waited for:
 * the error is thrown at once, carrying it.
 */
export class Transport {
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly fetch: FetchLike;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError("baseUrl is required, such as http://localhost:3000");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 2));
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  }

  /** The answer's JSON body, typed by the caller from the schema. */
  async json<T>(call: Call): Promise<T> {
    const response = await this.send(call);
    return (await response.json()) as T;
  }

  /** The successful answer itself (a PDF, a CSV), its body unread. */
  async send(call: Call): Promise<Response> {
    const url = this.url(call.path, call.query);
    const headers: Record<string, string> = { accept: "application/json, */*", ...call.headers };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    // One key for every attempt: a retry after a lost answer replays the first creation.
    if (call.idempotent) headers["idempotency-key"] = call.options?.idempotencyKey ?? randomUUID();
    const repeatable = call.method !== "POST" || call.idempotent === true;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const signal = call.options?.signal;

    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < this.maxRetries;
      let response: Response;
      try {
        const timeout = AbortSignal.timeout(this.timeoutMs);
        response = await this.fetch(url, {
          method: call.method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (cause) {
        if (signal?.aborted) throw cause;
        if (retriesLeft && repeatable) {
          await sleep(this.backoff(attempt), signal);
          continue;
        }
        throw new RemitError(`${call.method} ${call.path}: ${(cause as Error).message}`, {
          status: 0,
          code: "network_error",
          cause,
        });
      }
      if (response.ok || call.answers?.includes(response.status)) return response;

      const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
      const mayRetry =
        retriesLeft &&
        RETRYABLE(response.status) &&
        (repeatable || response.status === 429) &&
        (retryAfter === undefined || retryAfter * 1000 <= this.maxRetryDelayMs);
      if (!mayRetry) throw RemitError.fromResponse(response, await response.text(), retryAfter);
      // Free the connection before waiting.
      await response.body?.cancel().catch(() => {});
      await sleep(retryAfter === undefined ? this.backoff(attempt) : retryAfter * 1000, signal);
    }
  }

  /** 0.5 s, 1 s, 2 s, … up to 8 s, each between half and all of it (jitter spreads clients out). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
    return Math.min(this.maxRetryDelayMs, ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private url(path: string, query?: Record<string, unknown>): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (typeof value === "object" && !Array.isArray(value)) {
        // An object parameter (`metadata`) in OpenAPI's deepObject style: `metadata[order_id]=1042`.
        for (const [key, inner] of Object.entries(value))
          if (inner !== undefined && inner !== null) search.set(`${name}[${key}]`, String(inner));
        continue;
      }
      search.set(name, Array.isArray(value) ? value.join(",") : String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ""}`;
  }
}
