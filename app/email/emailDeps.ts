import type { Db } from "../../db/database.ts";
import type { Keyring } from "../../domain/secretBox.ts";
import type { Mailer } from "../../email/mailer.ts";
import type { CoreDeps } from "../deps.ts";

/** What composing and sending the queued emails needs from the worker's process. */
export type EmailDeps = {
  db: Db;
  mailer: Mailer;
  /** The From of every email, e.g. `Remit <billing@example.com>`. */
  emailFrom: string;
  /** Public origins used in every URL an email carries. */
  baseUrl: string;
  payUrl: string;
  explorerUrl: string | null;
  /** The keyring the API seals an email's link with (the webhook secrets'): opens it to send. */
  keys: Keyring;
  /** Renders a document's PDF that is not stored yet (app/documentPdf.ts): the worker's threads. */
  pdf: CoreDeps["pdf"];
};
