import type { Db } from "../db/database.ts";
import type { Mailer } from "../email/mailer.ts";

/** What the worker's tasks need from the process. */
export type WorkerDeps = {
  db: Db;
  mailer: Mailer;
  /** The From of every email, e.g. `Remit <billing@example.com>`. */
  emailFrom: string;
  baseUrl: string;
  payUrl: string;
  /** Ponder's schema for this build: the transfers and the indexed head are read there. */
  indexerSchema: string;
  confirmations: number;
  explorerUrl: string;
  webhooks: { allowPrivate: boolean; retryBaseMs: number; timeoutMs: number };
};
