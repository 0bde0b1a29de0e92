import type { Task } from "graphile-worker";
import { z } from "zod";
import { storedDocumentPdf } from "../../app/documentPdf.ts";
import type { WorkerDeps } from "../deps.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ kind: z.enum(["invoice", "creditNote"]), id: z.uuid() });

/**
 * Renders a created document's PDF from its stored record and stores it (app/documentPdf.ts),
 * queued in the transaction that created it (db/queries/documentParts.ts). Run again (a retry,
 * a replay after a restart) or after a download stored it first, it stores nothing new: one
 * record, one PDF. A failed render throws, and graphile-worker retries the job.
 */
export function renderPdf(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ kind, id }, helpers) => {
    const stored = await storedDocumentPdf(
      { db: deps.db, pdf: deps.pdf, baseUrl: deps.baseUrl, payUrl: deps.payUrl },
      kind,
      id,
    );
    if (!stored) helpers.logger.error(`render_pdf: no ${kind} ${id} to render`);
  });
}
