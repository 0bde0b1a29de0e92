import { http, type Transport } from "viem";

/** What the fake node answers one JSON-RPC call with. */
export type NodeReply =
  | { result: unknown }
  | { error: { code: number; message: string; data?: string } }
  /** A raw HTTP response (an error status, say). */
  | Response
  /** A connection that fails before any response (what fetch throws). */
  | { fail: Error }
  /** A node that never answers: the request times out. */
  | "hang";

/**
 * An RPC node for unit tests, behind viem's own http transport (no retries, a 100 ms timeout):
 * what it answers goes through viem's real request and error handling, so an action called on
 * it throws the very error objects a real node's answer would. `reply` answers each method.
 */
export function fakeNode(reply: (method: string, params: unknown[]) => NodeReply): Transport {
  const fetchFn = async (_input: unknown, init?: RequestInit): Promise<Response> => {
    const { id, method, params } = JSON.parse(String(init?.body)) as {
      id: number;
      method: string;
      params: unknown[];
    };
    const answer = reply(method, params);
    if (answer instanceof Response) return answer;
    if (answer === "hang")
      return new Promise((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    if ("fail" in answer) throw answer.fail;
    return Response.json({ jsonrpc: "2.0", id, ...answer });
  };
  return http("http://node.test/v2/secret-api-key", { fetchFn, retryCount: 0, timeout: 100 });
}

/** What fetch throws when nothing listens on the RPC's port. */
export const connectionRefused = (): Error =>
  new TypeError("fetch failed", {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8545"), {
      code: "ECONNREFUSED",
    }),
  });
