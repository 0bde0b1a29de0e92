import http from "node:http";
import { setTimeout as delay } from "node:timers/promises";

/**
 * POSTs a body larger than a server accepts (`limit` bytes) and resolves with the status it
 * answers. A server refusing a body answers and closes the connection without reading the
 * rest, and a write racing that close fails (EPIPE) before the answer is read: so the client
 * here writes nothing past what the server must read to decide. `declare`: the body's length is
 * announced and nothing is written until the server has answered (it must refuse on the
 * header alone); otherwise the body is chunked, written quickly up to `limit`, then a chunk at a
 * time with pauses until the answer.
 */
export function postOversized(
  url: string,
  headers: Record<string, string>,
  options: { limit: number; declare: boolean },
): Promise<number> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      url,
      {
        method: "POST",
        agent: false,
        headers: options.declare
          ? { ...headers, "content-length": String(options.limit + 1024 * 1024) }
          : { ...headers, "transfer-encoding": "chunked" },
      },
      (response) => {
        answered = true;
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      },
    );
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const write = () =>
      new Promise<void>((done) => (request.write(chunk) ? done() : request.once("drain", done)));
    void (async () => {
      if (options.declare) {
        request.flushHeaders();
        await delay(10_000);
        if (!answered) reject(new Error("no answer to an announced oversized body"));
        return;
      }
      for (let written = 0; !answered && written <= options.limit; written += chunk.length)
        await write();
      for (let i = 0; !answered && i < 200; i++) {
        await write();
        await delay(25);
      }
      if (!answered) reject(new Error("an oversized body was read on"));
    })().catch((error: unknown) => {
      if (!answered) reject(error);
    });
  });
}
