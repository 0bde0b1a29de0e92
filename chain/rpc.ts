import { fallback, type HttpTransportConfig, http, type Transport } from "viem";
import { splitRpcUrls } from "../internal/env.ts";

/**
 * A viem transport over one RPC URL or a comma-separated list of them: each is tried in
 * order (viem's `fallback`), and each retries a failed or rate-limited (429) call with
 * exponential backoff before the next is tried, so a flaky RPC slows a job down instead of
 * failing it. `batch`: the calls made in one tick go as one JSON-RPC batch, one round trip
 * (the price feeds' reads, chain/priceFeeds.ts); `onFetchRequest` sees each HTTP request.
 *
 * @example createPublicClient({ chain: base, transport: rpcTransport(env.CHAIN_RPC_URL) })
 */
export function rpcTransport(
  list: string,
  options: Pick<HttpTransportConfig, "retryCount" | "batch" | "onFetchRequest"> = {},
): Transport {
  const transports = splitRpcUrls(list).map((url) =>
    http(url, {
      retryCount: options.retryCount ?? 3,
      retryDelay: 250,
      batch: options.batch,
      onFetchRequest: options.onFetchRequest,
    }),
  );
  const [only] = transports;
  if (!only) throw new Error("no RPC URL given");
  return transports.length === 1 ? only : fallback(transports, { retryCount: 1 });
}

/** A bare JSON-RPC call; used where a viem client would be more than is needed. */
export async function rpcRequest<T = unknown>(
  url: string,
  method: string,
  params: unknown[],
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    signal: options.signal,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Bare JSON-RPC calls sent as one batch (one round trip); the results in the calls' order. */
export async function rpcBatchRequest<T = unknown>(
  url: string,
  calls: Array<{ method: string; params: unknown[] }>,
  options: { signal?: AbortSignal } = {},
): Promise<T[]> {
  const response = await fetch(url, {
    method: "POST",
    signal: options.signal,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call }))),
  });
  const replies = (await response.json()) as Array<{
    id: number;
    result?: T;
    error?: { message: string };
  }>;
  return calls.map((call, id) => {
    const reply = replies.find((r) => r.id === id);
    if (!reply || reply.error)
      throw new Error(`${call.method}: ${reply?.error?.message ?? "no reply"}`);
    return reply.result as T;
  });
}

/** A bare JSON-RPC call answered by the first of `list`'s URLs that answers. */
export async function rpcRequestAny<T = unknown>(
  list: string,
  method: string,
  params: unknown[],
): Promise<T> {
  let lastError: unknown = new Error("no RPC URL given");
  for (const url of splitRpcUrls(list)) {
    try {
      return await rpcRequest<T>(url, method, params);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * An RPC URL fit for logs and error messages: hosted RPCs carry their API key in the path
 * (`https://base-mainnet.g.alchemy.com/v2/<key>`), so only the origin is shown.
 *
 * @example describeRpcUrl("https://rpc.example/v2/secret") // "https://rpc.example/…"
 */
export function describeRpcUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.pathname.length > 1 || parsed.search !== "" || parsed.username !== "";
    return `${parsed.protocol}//${parsed.host}${hidden ? "/…" : ""}`;
  } catch {
    return "(an invalid URL)";
  }
}
