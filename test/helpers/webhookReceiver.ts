import http from "node:http";
import { freePort } from "../../internal/freePort.ts";

export type ReceivedWebhook = {
  headers: http.IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** What the receiver answered. */
  reply: Reply;
};

/**
 * What the receiver answers next: a status code, "hang" (never answer until released), or
 * "trickle" (a 200 status line at once, then a byte of body every 2 s, never ending).
 */
export type Reply = number | "hang" | "trickle";

/** How often a trickling answer sends its next byte. */
export const TRICKLE_INTERVAL_MS = 2_000;

/**
 * A local webhook receiver: records every request and answers from a script of replies
 * (then 200, or what `answerWith` says). Listens on loopback only.
 */
export async function startWebhookReceiver(script: Reply[] = []) {
  const received: ReceivedWebhook[] = [];
  const replies = [...script];
  let fallback: Reply = 200;
  const hanging: http.ServerResponse[] = [];
  const trickling = new Set<NodeJS.Timeout>();
  const trickle = (response: http.ServerResponse) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.write("o");
    const timer = setInterval(() => response.write("k"), TRICKLE_INTERVAL_MS);
    trickling.add(timer);
    response.on("close", () => {
      clearInterval(timer);
      trickling.delete(timer);
    });
  };
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const reply = replies.shift() ?? fallback;
      received.push({ headers: request.headers, body, receivedAt: Date.now(), reply });
      if (reply === "hang") hanging.push(response);
      else if (reply === "trickle") trickle(response);
      else response.writeHead(reply).end();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks/remit`,
    received,
    /** What to answer once the script is used up (200 unless changed): a receiver going down. */
    answerWith: (reply: Reply) => {
      fallback = reply;
    },
    /** Answers the requests left hanging, with 200. */
    release: () => {
      for (const response of hanging.splice(0)) response.writeHead(200).end();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging.splice(0)) response.destroy();
        for (const timer of trickling) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
