import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { InvoicePdfData } from "./invoiceDocument.ts";
import { NICE_ARG, type RenderReply, type RenderRequest } from "./renderProtocol.ts";

/** Every thread is busy and the queue is full: the caller answers 503, the client retries. */
export class PdfBusyError extends Error {
  override name = "PdfBusyError";
}

/** No PDF could be made: the render failed, crashed its thread twice, timed out, or the pool closed. */
export class PdfRenderError extends Error {
  override name = "PdfRenderError";
}

export type RenderPoolOptions = {
  /** Most threads rendering at once; default: the cores (`os.availableParallelism()`). */
  threads?: number;
  /** Threads kept while idle (each holds pdfmake and its fonts, ~30 MB); default 1. */
  warmThreads?: number;
  /** Renders waiting for a thread before new ones are refused; default 32 per thread. */
  maxQueue?: number;
  /** A thread above `warmThreads` idle this long exits; default 30 s. */
  idleMs?: number;
  /** A render running this long is treated as a crash (its thread is replaced); default 15 s. */
  timeoutMs?: number;
  /** The thread's module; default pdf/renderWorker (tests wrap it to crash a thread). */
  script?: URL;
  /**
   * The threads' nice value (0–19; Linux nice values are per thread): above the API's 0, the
   * kernel runs the event loop first whenever both want a core; renders still use every core
   * the API leaves idle. Default 0: on a quiet machine 10 did not lower a poll's p99 under
   * creation and slowed creation (docs/architecture.md, "Invoice PDFs").
   */
  nice?: number;
  /** Given to every thread as `workerData` (tests: a shared counter of crashes to cause). */
  workerData?: unknown;
  /** Told when a thread dies or is replaced, for the process's log. */
  onThreadExit?: (fields: { thread: number; reason: string; replaced: boolean }) => void;
};

type Job = {
  data: InvoicePdfData;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
  /** Threads that died while rendering it: one retry on a fresh thread, then it fails. */
  crashes: number;
};

type Thread = {
  worker: Worker;
  id: number;
  /** Done loading pdfmake and its fonts and rendering its warm-up invoice. */
  ready: boolean;
  job?: { id: number; job: Job; timer: NodeJS.Timeout };
  idleTimer?: NodeJS.Timeout;
  /** Why it is being ended, when the pool ends it (idle, hung, closing). */
  ending?: string;
  /** The error that ended it, when one did. */
  error?: Error;
};

/** A render thread's nice value when none is given (PDF_RENDER_NICE). */
export const DEFAULT_NICE = 0;

/**
 * The render thread's module: its bundle when the API runs from bundles (`npm start`,
 * platform/build.mjs, which names the directory in REMIT_BUILD_DIR), else its TypeScript.
 */
const workerScript = () => {
  const bundles = process.env.REMIT_BUILD_DIR;
  return bundles
    ? pathToFileURL(path.join(bundles, "pdf", "renderWorker.mjs"))
    : new URL("./renderWorker.ts", import.meta.url);
};

/**
 * A thread loads TypeScript as `npm start` does (tsx's loader, named by its file so it resolves
 * from any working directory), whatever ran this process: `node --import tsx`, vitest or tsx.
 */
const execArgvFor = (script: URL) =>
  script.pathname.endsWith(".ts")
    ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href]
    : [];

/**
 * Renders invoices in worker threads, so a render's ~60 ms of CPU never holds the API's event
 * loop (status polls keep answering while invoices are created) and renders use every core.
 * Jobs wait in one bounded FIFO queue; each thread renders one at a time. A thread that dies or
 * hangs is replaced and its job is retried once on the new thread. Threads start on demand up to
 * `threads`; above `warmThreads`, an idle one exits, giving its memory back.
 *
 * @example
 * const pool = createRenderPool();
 * const pdf = await pool.render(invoicePdfData(invoice, lines, url));
 * await pool.close();
 */
export function createRenderPool(options: RenderPoolOptions = {}) {
  const maxThreads = Math.max(1, options.threads ?? availableParallelism());
  const warmThreads = Math.min(maxThreads, Math.max(0, options.warmThreads ?? 1));
  const maxQueue = options.maxQueue ?? 32 * maxThreads;
  const idleMs = options.idleMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const script = options.script ?? workerScript();
  const execArgv = execArgvFor(script);
  const nice = Math.min(19, Math.max(0, Math.trunc(options.nice ?? DEFAULT_NICE)));

  const threads = new Set<Thread>();
  const queue: Job[] = [];
  let nextJobId = 0;
  let nextThreadId = 0;
  let closed = false;

  function spawn(): Thread {
    const worker = new Worker(script, {
      execArgv,
      // The thread lowers its own priority first thing (pdf/renderWorker.ts).
      argv: [`${NICE_ARG}${nice}`],
      workerData: options.workerData,
      // A pathological document exhausts its thread's heap, not the API's. A render allocates
      // ~60 ms of short-lived objects: the young generation V8 would give it by default, not
      // the API process's small one (SEMI_SPACE_MB): 4 clients created 29/s with it, 25/s
      // without (same quiet machine, same run of minutes).
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 48 },
      stdout: false,
      stderr: false,
    });
    const thread: Thread = { worker, id: nextThreadId++, ready: false };
    threads.add(thread);
    worker.on("message", (message: RenderReply | { ready: true }) => {
      if ("ready" in message) {
        thread.ready = true;
        dispatch();
        return;
      }
      const current = thread.job;
      if (!current || current.id !== message.id) return;
      clearTimeout(current.timer);
      thread.job = undefined;
      const { result } = message;
      if (result.ok)
        current.job.resolve(
          Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength),
        );
      else
        current.job.reject(new PdfRenderError(`the PDF could not be rendered: ${result.message}`));
      dispatch();
    });
    // An uncaught error (or running out of heap) ends the thread: 'exit' follows and cleans up.
    worker.on("error", (error) => {
      thread.error = error;
    });
    worker.on("exit", (code) =>
      exited(thread, thread.ending ?? thread.error?.message ?? `exit code ${code}`),
    );
    return thread;
  }

  function exited(thread: Thread, reason: string) {
    if (!threads.delete(thread)) return;
    clearTimeout(thread.idleTimer);
    const current = thread.job;
    thread.job = undefined;
    if (current) {
      clearTimeout(current.timer);
      current.job.crashes++;
      if (closed) current.job.reject(new PdfRenderError("the PDF renderer is shutting down"));
      else if (current.job.crashes > 1)
        current.job.reject(new PdfRenderError(`the PDF render thread died twice (${reason})`));
      // At the head: it has waited longest.
      else queue.unshift(current.job);
    }
    if (closed || thread.ending === "idle") return;
    if (threads.size < warmThreads) spawn();
    dispatch();
    options.onThreadExit?.({ thread: thread.id, reason, replaced: threads.size > 0 });
  }

  function dispatch() {
    if (closed) return;
    for (const thread of threads) {
      if (queue.length === 0) break;
      if (!thread.ready || thread.job) continue;
      const job = queue.shift() as Job;
      clearTimeout(thread.idleTimer);
      thread.idleTimer = undefined;
      const id = nextJobId++;
      const timer = setTimeout(() => {
        // Hung: ended like a crash (exit then retries the job once on a new thread).
        thread.ending = `no answer within ${timeoutMs} ms`;
        void thread.worker.terminate();
      }, timeoutMs);
      thread.job = { id, job, timer };
      const request: RenderRequest = { id, data: job.data };
      thread.worker.postMessage(request);
    }
    // Jobs still waiting, and no thread starting that could take them: start one if allowed.
    const starting = [...threads].filter((thread) => !thread.ready).length;
    if (queue.length > starting && threads.size < maxThreads) spawn();
    for (const thread of threads) {
      if (thread.ready && !thread.job && !thread.idleTimer && threads.size > warmThreads) {
        thread.idleTimer = setTimeout(() => {
          thread.idleTimer = undefined;
          if (thread.job || threads.size <= warmThreads) return;
          thread.ending = "idle";
          void thread.worker.terminate();
        }, idleMs);
        thread.idleTimer.unref();
      }
    }
  }

  for (let i = 0; i < warmThreads; i++) spawn();

  return {
    /** The invoice's PDF, rendered on a thread (byte-identical to rendering it in-process). */
    render(data: InvoicePdfData): Promise<Buffer> {
      if (closed) return Promise.reject(new PdfRenderError("the PDF renderer is shutting down"));
      if (queue.length >= maxQueue) {
        return Promise.reject(new PdfBusyError("every PDF render thread is busy; retry shortly"));
      }
      return new Promise<Buffer>((resolve, reject) => {
        queue.push({ data, resolve, reject, crashes: 0 });
        dispatch();
      });
    },
    /** Threads running now, and renders waiting for one (for tests and metrics). */
    stats: () => ({
      threads: threads.size,
      busy: [...threads].filter((thread) => thread.job).length,
      queued: queue.length,
    }),
    /** Refuses new renders, fails the waiting ones and ends every thread (on SIGTERM). */
    async close(): Promise<void> {
      closed = true;
      for (const thread of threads) thread.ending = "closing";
      for (const job of queue.splice(0))
        job.reject(new PdfRenderError("the PDF renderer is shutting down"));
      await Promise.all([...threads].map((thread) => thread.worker.terminate()));
    },
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;
