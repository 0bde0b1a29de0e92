import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { waitFor } from "../internal/process.ts";
import { type InvoicePdfData, renderInvoicePdf } from "./invoiceDocument.ts";
import { createRenderPool, PdfBusyError, PdfRenderError, type RenderPool } from "./renderPool.ts";
import { sampleInvoice } from "./sampleInvoice.ts";

const crashingWorker = new URL("../test/helpers/crashingRenderWorker.ts", import.meta.url);
/** The OS threads of this process: a worker thread is one of them. */
const osThreads = () => readdirSync("/proc/self/task").length;
/** Each OS thread's nice value (the 19th field of /proc/self/task/<tid>/stat). */
const niceValues = () =>
  readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });

const pools: RenderPool[] = [];
const pool = (...args: Parameters<typeof createRenderPool>) => {
  const created = createRenderPool(...args);
  pools.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const multiScript: InvoicePdfData = {
  ...sampleInvoice,
  invoiceNumber: "INV-0042",
  merchant: { ...sampleInvoice.merchant, name: "株式会社 Acme" },
  vendor: { ...sampleInvoice.vendor, name: "שלום Globex", address: "Straße 1\nBerlin" },
  notes: "Merci — спасибо — شكرا 🎉",
};

// A thread's start (tsx, pdfmake, fonts, a warm-up render) takes seconds on a loaded machine.
describe("PDF render pool (worker threads)", { timeout: 60_000 }, () => {
  test("a render on a thread is byte-for-byte the in-process render", async () => {
    const renders = pool({ threads: 2 });
    for (const data of [sampleInvoice, multiScript]) {
      const [threaded, inProcess] = await Promise.all([
        renders.render(data),
        renderInvoicePdf(data),
      ]);
      expect(threaded.subarray(0, 5).toString()).toBe("%PDF-");
      expect(threaded.equals(inProcess)).toBe(true);
    }
  });

  test("the render threads run below the event loop's priority, which keeps its own", async () => {
    const atFifteen = () => niceValues().filter((nice) => nice === 15).length;
    // The main thread's id is the process's.
    const mainNice = () =>
      Number(
        readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]?.split(" ")[16],
      );
    const before = atFifteen();
    const mainBefore = mainNice();
    const renders = pool({ threads: 2, warmThreads: 2, nice: 15 });
    // Both threads ready (each lowers its priority before its warm-up render).
    await Promise.all([renders.render(sampleInvoice), renders.render(sampleInvoice)]);
    expect(atFifteen() - before).toBe(2);
    expect(mainNice()).toBe(mainBefore);
  });

  test("renders run on up to `threads` threads at once, and each answers its own request", async () => {
    const renders = pool({ threads: 2, warmThreads: 0 });
    const numbers = Array.from({ length: 6 }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`);
    const pdfs = await Promise.all(
      numbers.map((invoiceNumber) => renders.render({ ...sampleInvoice, invoiceNumber })),
    );
    expect(renders.stats().threads).toBe(2);
    const expected = await Promise.all(
      numbers.map((invoiceNumber) => renderInvoicePdf({ ...sampleInvoice, invoiceNumber })),
    );
    expect(pdfs.map((pdf, i) => pdf.equals(expected[i] as Buffer))).toEqual(pdfs.map(() => true));
  });

  test("a thread that dies mid-render is replaced and the render still answers", async () => {
    const crashes = new SharedArrayBuffer(4);
    new Int32Array(crashes)[0] = 1;
    const exits: string[] = [];
    const renders = pool({
      threads: 1,
      script: crashingWorker,
      workerData: crashes,
      onThreadExit: ({ reason }) => exits.push(reason),
    });
    const pdf = await renders.render(sampleInvoice);
    expect(pdf.equals(await renderInvoicePdf(sampleInvoice))).toBe(true);
    expect(exits).toEqual(["exit code 7"]);
    expect(renders.stats()).toMatchObject({ threads: 1, queued: 0 });
    // The replacement keeps serving.
    expect((await renders.render(multiScript)).equals(await renderInvoicePdf(multiScript))).toBe(
      true,
    );
  });

  test("a render that kills its thread twice fails with PdfRenderError; the pool goes on", async () => {
    const crashes = new SharedArrayBuffer(4);
    new Int32Array(crashes)[0] = 2;
    const renders = pool({ threads: 1, script: crashingWorker, workerData: crashes });
    await expect(renders.render(sampleInvoice)).rejects.toBeInstanceOf(PdfRenderError);
    expect((await renders.render(sampleInvoice)).subarray(0, 5).toString()).toBe("%PDF-");
  });

  test("past the bounded queue a render is refused at once with PdfBusyError", async () => {
    const renders = pool({ threads: 1, maxQueue: 2 });
    const accepted = [1, 2].map(() => renders.render(sampleInvoice));
    await expect(renders.render(sampleInvoice)).rejects.toBeInstanceOf(PdfBusyError);
    await Promise.all(accepted);
  });

  test("close ends every thread and fails what is still waiting", async () => {
    const before = osThreads();
    const renders = createRenderPool({ threads: 2, warmThreads: 2 });
    await waitFor("two render threads", async () => osThreads() >= before + 2, {
      timeoutMs: 30_000,
    });
    const waiting = Promise.allSettled(
      Array.from({ length: 5 }, () => renders.render(sampleInvoice)),
    );
    await renders.close();
    const results = await waiting;
    expect(results.some((r) => r.status === "rejected")).toBe(true);
    for (const r of results)
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(PdfRenderError);
    expect(renders.stats().threads).toBe(0);
    await waitFor("the render threads to end", async () => osThreads() <= before, {
      timeoutMs: 10_000,
    });
    await expect(renders.render(sampleInvoice)).rejects.toBeInstanceOf(PdfRenderError);
  });
});
