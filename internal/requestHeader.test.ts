import { createServer, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requestHeader } from "./requestHeader.ts";

const NAMES = ["x-forwarded-for", "x-request-id", "authorization", "content-length", "x-absent"];

/** A real node-server answering, for each name, requestHeader's reading and the standard one. */
function headersApp() {
  const app = new Hono();
  app.all("/", (c) => {
    const ours = Object.fromEntries(NAMES.map((name) => [name, requestHeader(c, name) ?? null]));
    const standard = Object.fromEntries(NAMES.map((name) => [name, c.req.header(name) ?? null]));
    return c.json({
      ours,
      standard,
      underNode: Boolean((c.env as { incoming?: IncomingMessage })?.incoming),
    });
  });
  return app;
}

describe("requestHeader", () => {
  const server = createServer(getRequestListener(headersApp().fetch));
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends raw header lines, repeats included (fetch would merge them first). */
  async function ask(lines: string[]) {
    const { port } = server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.end(
          ["GET / HTTP/1.1", "Host: x", "Connection: close", ...lines, "", ""].join("\r\n"),
        ),
      );
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    return JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as {
      ours: unknown;
      standard: unknown;
      underNode: boolean;
    };
  }

  test("under node-server, answers what c.req.header answers, repeated headers included", async () => {
    for (const lines of [
      [],
      ["X-Forwarded-For: 203.0.113.7"],
      ["x-forwarded-for: 203.0.113.7", "X-Forwarded-For: 10.0.0.1"],
      ["X-Request-Id: a", "x-request-id: b"],
      ["Authorization: Bearer one", "Authorization: Bearer two"],
      ["Authorization: Bearer one"],
    ]) {
      const answer = await ask(lines);
      expect(answer.underNode).toBe(true);
      expect(answer.ours).toEqual(answer.standard);
    }
  });

  test("outside node-server, is the standard reading", async () => {
    const response = await headersApp().request("/", {
      headers: { "x-forwarded-for": "203.0.113.7", authorization: "Bearer k" },
    });
    const answer = (await response.json()) as {
      ours: unknown;
      standard: unknown;
      underNode: boolean;
    };
    expect(answer.underNode).toBe(false);
    expect(answer.ours).toEqual(answer.standard);
  });
});
