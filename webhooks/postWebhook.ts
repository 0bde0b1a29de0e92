import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction, Socket } from "node:net";
import { isPrivateAddress } from "../domain/privateAddress.ts";
import { webhookUrlProblem } from "../domain/webhookUrlPolicy.ts";

export type WebhookResponse = { statusCode: number; latencyMs: number };

export class WebhookRefused extends Error {
  override name = "WebhookRefused";
}

/**
 * A DNS lookup that refuses private addresses. It runs inside the connection itself, so the
 * address checked is the address connected to: a name that resolves to a public address when
 * checked and to 127.0.0.1 when connecting (DNS rebinding) cannot slip through.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as unknown as LookupAddress[];
    const refused = list.find((a) => isPrivateAddress(a.address));
    if (refused) {
      return callback(
        new WebhookRefused(`${hostname} resolves to ${refused.address}, a private address`),
        "",
        0,
      );
    }
    if (options.all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

/**
 * The last word on where a webhook goes: once the socket is connected, and before the request
 * is written to it, the peer must be a public address. The URL policy judges literal hosts and
 * the guarded lookup judges names; this judges whatever was actually connected to, by any path
 * either of them missed. Attach it to the request's `socket` event: the request writes only
 * after that event, and a write on a connecting socket waits for `connect`, after this check.
 */
export function refusePrivatePeer(socket: Socket): void {
  const check = () => {
    const peer = socket.remoteAddress;
    if (peer === undefined || isPrivateAddress(peer))
      socket.destroy(
        new WebhookRefused(`connected to ${peer ?? "an unknown peer"}, a private address`),
      );
  };
  if (socket.connecting) socket.once("connect", check);
  else check();
}

/** How much of a receiver's response body is read: it is never used, only drained a little. */
export const RESPONSE_BODY_CAP_BYTES = 4096;

/**
 * POSTs a webhook body and resolves with the receiver's status code (any code: the caller
 * decides what is a success). One hard deadline, `timeoutMs`, covers the whole exchange: the
 * lookup, the connection, the request, the status line and the body. The body is read only up
 * to RESPONSE_BODY_CAP_BYTES and the socket is then destroyed, never pooled: a receiver that
 * answers at once and then trickles its body (a byte every few seconds) is cut at the deadline
 * and the attempt fails, rather than holding a worker for as long as it likes. Rejects on a
 * network error, at the deadline, and — unless `allowPrivate` — on a URL that is not https or
 * whose host is a private address, a name that resolves to one, or a connection whose peer is
 * one.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<WebhookResponse> {
  const target = new URL(url);
  const problem = options.allowPrivate ? null : webhookUrlProblem(url);
  if (problem) return Promise.reject(new WebhookRefused(`webhook URL ${problem}`));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { statusCode: number } | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      // Nothing more is wanted from this receiver: the socket goes, whatever it was doing.
      request.destroy();
      if (outcome instanceof Error) reject(outcome);
      else
        resolve({
          statusCode: outcome.statusCode,
          latencyMs: Math.round(performance.now() - started),
        });
    };
    const request = (target.protocol === "https:" ? https : http).request(
      target,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "Remit-Webhooks/1",
          ...headers,
        },
        // A connection of its own, closed after the attempt: a receiver's socket is never reused.
        agent: false,
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read >= RESPONSE_BODY_CAP_BYTES) finish({ statusCode });
        });
        response.on("end", () => finish({ statusCode }));
        response.on("error", (error) => finish(error));
        response.on("aborted", () => finish(new Error("the receiver closed the response early")));
      },
    );
    const deadline = setTimeout(
      () => finish(new Error(`no complete response within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    if (!options.allowPrivate) request.on("socket", refusePrivatePeer);
    request.on("error", (error) => finish(error));
    request.end(body);
  });
}
