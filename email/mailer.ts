import { Client } from "@sendgrid/client";
import { MailService } from "@sendgrid/mail";

export type OutgoingEmail = {
  /** Remit's id of the message (app.emails.id): the capture outbox de-duplicates on it. */
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; type: string; content: Buffer }[];
};

export type Mailer = {
  send: (email: OutgoingEmail) => Promise<void>;
  /**
   * Whether the provider has a message with this id: true, false, or null when it cannot tell
   * (SendGrid's Email Activity API needs its add-on; without it this answers null).
   */
  wasAccepted: (id: string) => Promise<boolean | null>;
};

/**
 * Control characters: C0 (CR and LF among them), DEL, C1, and Unicode's line and paragraph
 * separators. In a header value, a line break starts a header of its own.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/** A header value with each run of control characters turned into one space. */
const headerValue = (text: string): string => text.replace(CONTROL_CHARACTERS, " ");

/**
 * The real SendGrid client (@sendgrid/mail), pointed at `baseUrl`: SendGrid itself in
 * production, the local capture endpoint (api/dev/outbox.ts) in development and tests.
 * `setApiKey` resets the base URL, so the key is set first.
 */
export function createMailer(options: { apiKey: string; baseUrl: string }): Mailer {
  const client = new Client();
  client.setApiKey(options.apiKey);
  client.setDefaultRequest("baseUrl", options.baseUrl);
  client.setDefaultRequest("timeout" as never, 15_000 as never);
  const mail = new MailService();
  mail.setClient(client);
  return {
    wasAccepted: async (id) => {
      try {
        const [response, body] = await client.request({
          method: "GET",
          url: "/v3/messages",
          qs: { query: `unique_args['remit_email_id']="${id}"`, limit: 1 },
        });
        if (response.statusCode !== 200) return null;
        const messages = (body as { messages?: unknown[] } | null)?.messages;
        return Array.isArray(messages) ? messages.length > 0 : null;
      } catch {
        return null;
      }
    },
    // Every value that ends up in a header (addresses and names, subject, attachment names,
    // custom headers) passes through headerValue here, so no email's author can forget it.
    send: async (email) => {
      await mail.send({
        to: headerValue(email.to),
        from: headerValue(email.from),
        subject: headerValue(email.subject),
        text: email.text,
        html: email.html,
        customArgs: { remit_email_id: headerValue(email.id) },
        headers: { "X-Remit-Email-Id": headerValue(email.id) },
        attachments: email.attachments?.map((a) => ({
          filename: headerValue(a.filename),
          type: headerValue(a.type),
          content: a.content.toString("base64"),
          disposition: "attachment",
        })),
      });
    },
  };
}
