import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { operationalOnly } from "../middleware/operationalOnly.ts";
import {
  type CapturedEmail,
  messageHtmlCsp,
  messageHtmlDocument,
  outboxPage,
  outboxPageCsp,
} from "./outboxPage.ts";

export type { CapturedEmail };

/**
 * Development stand-in for SendGrid's v3 mail API, so the real @sendgrid/mail client runs
 * end to end without the internet: `POST /dev/sendgrid/v3/mail/send` writes each message to
 * `<outboxDir>/<id>.json`, and `/dev/outbox` lists them. Mounted only on a local chain
 * (simulated or fork mode) without SENDGRID_API_KEY, and served like the other operational
 * endpoints (internal/operationalAccess.ts): to requests from this machine itself where the
 * listener may trust that (`access.trustLocal`: the loopback OPS_PORT listener always, the
 * public port only in a zero-config development set-up), and to the operator's OPS_TOKEN;
 * everyone else gets a 404, as if it did not exist. A message is keyed by Remit's email id, so a retried send is recorded once (with its
 * delivery count) rather than twice.
 */
const SendGridMail = z.object({
  personalizations: z
    .array(z.object({ to: z.array(z.object({ email: z.string(), name: z.string().optional() })) }))
    .min(1),
  from: z.object({ email: z.string(), name: z.string().optional() }),
  subject: z.string(),
  content: z.array(z.object({ type: z.string(), value: z.string() })).min(1),
  attachments: z
    .array(z.object({ filename: z.string(), type: z.string().optional(), content: z.string() }))
    .optional(),
  custom_args: z.record(z.string(), z.string()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/** SendGrid's own cap on a whole message (attachments included): the capture takes no more. */
export const MAX_CAPTURED_MESSAGE_BYTES = 30 * 1024 * 1024;

/**
 * A browser asking for a page (its Accept names text/html before any JSON); everything else —
 * no Accept, `application/json`, `*\/*`, the tests and `stack.outbox()` — gets the JSON.
 */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(",").map((part) => part.split(";")[0]?.trim().toLowerCase());
  const html = types.indexOf("text/html");
  const json = types.indexOf("application/json");
  return html !== -1 && (json === -1 || html < json);
}

const notFound = { error: { code: "not_found", message: "no such message" } };

/** Whether `header` is `Bearer <apiKey>`, compared in constant time. */
const carriesKey = (header: string | undefined, apiKey: string): boolean => {
  const given = Buffer.from(header ?? "");
  const wanted = Buffer.from(`Bearer ${apiKey}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
};

/**
 * `access.apiKey`: the only key the capture takes (internal/localCaptureKey.ts, the key the
 * stack's own worker is given); any other bearer token is SendGrid's 401.
 */
export function outboxRoutes(
  outboxDir: string,
  access: { token?: string; trustLocal?: boolean; apiKey: string },
): Hono {
  const app = new Hono();
  const file = (id: string) => path.join(outboxDir, `${id}.json`);

  app.use(
    "/dev/*",
    operationalOnly(
      access.token,
      (c) =>
        c.json(
          { error: { code: "not_found", message: `no route for ${c.req.method} ${c.req.path}` } },
          404,
        ),
      access.trustLocal ?? true,
    ),
  );

  app.post(
    "/dev/sendgrid/v3/mail/send",
    bodyLimit({
      maxSize: MAX_CAPTURED_MESSAGE_BYTES,
      onError: (c) =>
        c.json(
          { errors: [{ message: `a message is at most ${MAX_CAPTURED_MESSAGE_BYTES} bytes` }] },
          413,
        ),
    }),
    async (c) => {
      if (!carriesKey(c.req.header("authorization"), access.apiKey)) {
        return c.json(
          {
            errors: [
              { message: "The provided authorization grant is invalid, expired, or revoked" },
            ],
          },
          401,
        );
      }
      const parsed = SendGridMail.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success)
        return c.json(
          {
            errors: parsed.error.issues.map((i) => ({
              message: i.message,
              field: i.path.join("."),
            })),
          },
          400,
        );
      const mail = parsed.data;
      const requested = mail.custom_args?.remit_email_id ?? mail.headers?.["X-Remit-Email-Id"];
      const id = requested && SAFE_ID.test(requested) ? requested : randomUUID();
      await mkdir(outboxDir, { recursive: true });
      const previous = await readFile(file(id), "utf8").then(
        (text) => JSON.parse(text) as CapturedEmail,
        () => null,
      );
      const captured: CapturedEmail = {
        id,
        received_at: previous?.received_at ?? new Date().toISOString(),
        deliveries: (previous?.deliveries ?? 0) + 1,
        to: mail.personalizations.flatMap((p) => p.to.map((t) => t.email)),
        from: mail.from.email,
        subject: mail.subject,
        text: mail.content.find((part) => part.type === "text/plain")?.value ?? null,
        html: mail.content.find((part) => part.type === "text/html")?.value ?? null,
        attachments: (mail.attachments ?? []).map((a) => {
          const bytes = Buffer.from(a.content, "base64");
          return {
            filename: a.filename,
            type: a.type ?? null,
            size: bytes.length,
            sha256: createHash("sha256").update(bytes).digest("hex"),
            content: a.content,
          };
        }),
      };
      // Written aside and renamed, so a reader never sees half a message.
      const partial = `${file(id)}.${process.pid}.tmp`;
      await writeFile(partial, JSON.stringify(captured, null, 2));
      await rename(partial, file(id));
      return c.body(null, 202);
    },
  );

  // SendGrid's Email Activity API, as far as the worker uses it: is there a message with this
  // remit_email_id? (app/email/sendEmail.ts asks after a crash mid-send.)
  app.get("/dev/sendgrid/v3/messages", async (c) => {
    const id = c.req.query("query")?.match(/remit_email_id'\]\s*=\s*"([A-Za-z0-9-]{1,64})"/)?.[1];
    if (!id) return c.json({ errors: [{ message: "unsupported query" }] }, 400);
    const found = await readFile(file(id), "utf8").then(
      (text) => JSON.parse(text) as CapturedEmail,
      () => null,
    );
    return c.json({
      messages: found
        ? [{ msg_id: found.id, status: "delivered", to_email: found.to[0], subject: found.subject }]
        : [],
    });
  });

  app.get("/dev/outbox", async (c) => {
    const names = (await readdir(outboxDir).catch(() => [])).filter((name) =>
      name.endsWith(".json"),
    );
    const messages = await Promise.all(
      names.map(
        async (name) =>
          JSON.parse(await readFile(path.join(outboxDir, name), "utf8")) as CapturedEmail,
      ),
    );
    messages.sort((a, b) => b.received_at.localeCompare(a.received_at));
    c.header("Vary", "Accept");
    if (wantsHtml(c.req.header("accept"))) {
      const nonce = randomBytes(16).toString("base64");
      c.header("Content-Security-Policy", outboxPageCsp(nonce));
      c.header("X-Content-Type-Options", "nosniff");
      c.header("Referrer-Policy", "no-referrer");
      c.header("Cache-Control", "no-store");
      return c.html(outboxPage(messages, nonce));
    }
    return c.json({
      messages: messages.map(({ attachments, html: _html, text: _text, ...summary }) => ({
        ...summary,
        attachments: attachments.map(({ content: _content, ...meta }) => meta),
      })),
    });
  });

  const load = async (id: string): Promise<CapturedEmail | null> => {
    if (!SAFE_ID.test(id)) return null;
    const text = await readFile(file(id), "utf8").catch(() => null);
    return text ? (JSON.parse(text) as CapturedEmail) : null;
  };

  app.get("/dev/outbox/:id", async (c) => {
    const message = await load(c.req.param("id"));
    return message ? c.json(message) : c.json(notFound, 404);
  });

  // The HTML body alone, for the page's sandboxed iframe: its own CSP sandboxes it as well.
  app.get("/dev/outbox/:id/html", async (c) => {
    const message = await load(c.req.param("id"));
    if (message?.html == null) return c.json(notFound, 404);
    c.header("Content-Security-Policy", messageHtmlCsp);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", "no-store");
    return c.html(messageHtmlDocument(message.html));
  });

  // An attachment's bytes, always as a download: never rendered on this origin.
  app.get("/dev/outbox/:id/attachments/:index", async (c) => {
    const message = await load(c.req.param("id"));
    const index = c.req.param("index");
    const attachment = /^\d{1,3}$/.test(index) ? message?.attachments[Number(index)] : undefined;
    if (!attachment) return c.json(notFound, 404);
    const bytes = Buffer.from(attachment.content, "base64");
    return c.body(new Uint8Array(bytes), 200, {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${attachment.filename.replace(/[^\w.-]+/g, "_")}"`,
      "Content-Length": String(bytes.length),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "no-store",
    });
  });

  return app;
}
