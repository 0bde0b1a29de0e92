// One render thread of pdf/renderPool.ts: loads pdfmake and the fonts once, renders one invoice
// at a time, answers with the PDF's bytes (moved, not copied, to the main thread).
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { type InvoicePdfData, renderInvoicePdf } from "./invoiceDocument.ts";
import { NICE_ARG, type RenderReply, type RenderRequest } from "./renderProtocol.ts";
import { sampleInvoice } from "./sampleInvoice.ts";

const port = parentPort;
if (!port) throw new Error("pdf/renderWorker.ts runs as a worker thread of pdf/renderPool.ts");

// Lower this thread's priority before any work (the warm-up included). On Linux a nice value
// belongs to a thread, and setPriority() without a pid sets the calling one's: the API's event
// loop keeps 0. Where that fails (another OS's rules), the thread renders at normal priority.
const nice = Number(process.argv.find((arg) => arg.startsWith(NICE_ARG))?.slice(NICE_ARG.length));
if (nice > 0) {
  try {
    setPriority(nice);
  } catch {
    // Not allowed here: renders at the API's priority, as before.
  }
}

/** The PDF's own ArrayBuffer, so it can be transferred: pdfkit's may be a slice of a larger one. */
function ownBytes(pdf: Buffer): Uint8Array {
  if (pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength) return pdf;
  return new Uint8Array(pdf);
}

async function render(data: InvoicePdfData): Promise<RenderReply["result"]> {
  try {
    return { ok: true, pdf: ownBytes(await renderInvoicePdf(data)) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

// Warm-up before the first request: fonts parsed, pdfkit's code compiled (the first render of a
// thread takes several times a warm one).
await renderInvoicePdf(sampleInvoice);
port.postMessage({ ready: true });

port.on("message", async ({ id, data }: RenderRequest) => {
  const result = await render(data);
  const reply: RenderReply = { id, result };
  port.postMessage(reply, result.ok ? [result.pdf.buffer as ArrayBuffer] : []);
});
