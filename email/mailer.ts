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
    send: async (email) => {
      await mail.send({
        to: email.to,
        from: email.from,
        subject: email.subject,
        text: email.text,
        html: email.html,
        customArgs: { remit_email_id: email.id },
        headers: { "X-Remit-Email-Id": email.id },
        attachments: email.attachments?.map((a) => ({
          filename: a.filename,
          type: a.type,
          content: a.content.toString("base64"),
          disposition: "attachment",
        })),
      });
    },
  };
}
