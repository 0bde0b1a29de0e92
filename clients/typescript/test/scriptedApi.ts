import http from "node:http";

export type Seen = {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
};
/** What the API answers a request: a status, headers and a JSON body, or "drop" (the socket is cut). */
export type Answer = { status: number; headers?: Record<string, string>; json?: unknown } | "drop";

/**
 * A stand-in for the Remit API on 127.0.0.1 that answers each request with `answer` (given what
 * it has seen so far) and records them all: for what a client does with a 429, a 503, a cut
 * connection or a page, which the real API cannot be made to answer on cue.
 */
export async function scriptedApi(answer: (request: Seen, index: number) => Answer) {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const entry = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body,
        at: Date.now(),
      };
      seen.push(entry);
      const reply = answer(entry, seen.length - 1);
      if (reply === "drop") {
        request.socket.destroy();
        return;
      }
      response.writeHead(reply.status, {
        "content-type": "application/json",
        ...reply.headers,
      });
      response.end(reply.json === undefined ? "" : JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An error body as the API writes it. */
export const apiError = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message, request_id: "req-42", ...extra },
});
