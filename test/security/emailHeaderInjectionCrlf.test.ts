import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { createMailer, type OutgoingEmail } from "../../email/mailer.ts";

const INJECTION = "\r\nBcc: attacker@example.com";
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

/** A stand-in for SendGrid's API: records each request body and accepts it. */
async function startSendGrid() {
  const bodies: unknown[] = [];
  const server = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      bodies.push(JSON.parse(text));
      response.writeHead(202).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, bodies, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Every string of a SendGrid request body except the message's content, with its path. */
function headerStrings(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => headerStrings(item, `${path}[${i}]`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) =>
      key === "content" ? [] : headerStrings(item, path ? `${path}.${key}` : key),
    );
  return [];
}

/**
 * A merchant name (or any other value) carrying CR/LF would, once in a header, start a header
 * of its own: `Bcc: attacker@example.com` sends the invoice to the attacker. Every header value
 * leaves the mailer without control characters, whichever email it belongs to.
 */
describe("an email whose header values carry CR/LF", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  });

  test("goes out with no injected header", async () => {
    const sendGrid = await startSendGrid();
    servers.push(sendGrid.server);
    const email: OutgoingEmail = {
      id: "6f1c2a4e-0000-4000-8000-000000000001",
      to: `vendor@globex.example${INJECTION}`,
      from: `Acme${INJECTION}\u0085\u2028 <billing@acme.example>`,
      subject: `Invoice INV-1 from Acme${INJECTION}: 10.00 USDC due 2030-01-01`,
      text: "line one\r\nline two",
      html: "<p>hello</p>",
      attachments: [
        {
          filename: `INV-1${INJECTION}.pdf`,
          type: "application/pdf",
          content: Buffer.from("%PDF"),
        },
      ],
    };
    await createMailer({ apiKey: "SG.test", baseUrl: sendGrid.url }).send(email);

    const [sent] = sendGrid.bodies as Record<string, unknown>[];
    const withControls = headerStrings(sent).filter(([, value]) => CONTROL.test(value));
    expect(withControls).toEqual([]);
    expect(JSON.stringify(sent)).not.toMatch(/"bcc"/i);
    expect(sent?.subject).toBe(
      "Invoice INV-1 from Acme Bcc: attacker@example.com: 10.00 USDC due 2030-01-01",
    );
    // The message itself keeps its line breaks.
    expect(JSON.stringify(sent?.content)).toContain("line one\\r\\nline two");
  });
});
