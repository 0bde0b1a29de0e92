import { sql } from "kysely";
import { afterEach, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Line = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every line a process wrote, parsed: each must be one JSON object. */
const linesOf = (process: TestProcess): Line[] =>
  process
    .output()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Line;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });

describe("structured logs", () => {
  let stack: TestStack | undefined;
  let worker: TestProcess | undefined;
  afterEach(async () => {
    await worker?.stop();
    await stack?.stop();
    worker = stack = undefined;
  });

  test("every line the API writes while handling a request carries that request's id", async () => {
    stack = await startStack({ env: { LOG_LEVEL: "debug" } });
    const api = stack.api;
    const create = (requestId: string) =>
      stack?.request("/api/invoices", {
        method: "POST",
        headers: { "X-Request-Id": requestId },
        json: invoiceRequest({ send_now: false }),
      }) as Promise<Response>;
    // Concurrent requests: each line must name the request it belongs to, not a neighbour.
    const [first, second, third, forged, invalid] = await Promise.all([
      create("obs-1"),
      create("obs-2"),
      create("obs-3"),
      create("forged id\u00e9"),
      stack.request("/api/invoices", { method: "POST", json: { merchant_email: "nope" } }),
    ]);
    expect([first, second, third, forged].map((response) => response.status)).toEqual([
      201, 201, 201, 201,
    ]);
    expect(invalid.status).toBe(400);
    const forgedId = forged.headers.get("x-request-id") as string;
    expect(forgedId).toMatch(UUID);
    const invalidId = invalid.headers.get("x-request-id") as string;
    expect(((await invalid.json()) as { error: { request_id: string } }).error.request_id).toBe(
      invalidId,
    );

    const ids = ["obs-1", "obs-2", "obs-3", forgedId, invalidId];
    await waitFor("a request line for each request", async () => {
      const done = linesOf(api).filter((line) => line.msg === "request");
      return ids.every((id) => done.some((line) => line.request_id === id));
    });
    const lines = linesOf(api);
    const of = (id: string) => lines.filter((line) => line.request_id === id);

    for (const [index, response] of [first, second, third, forged].entries()) {
      const { invoice_id } = (await response.json()) as { invoice_id: string };
      expect(
        of(ids[index] as string).map((line) => [line.component, line.level, line.msg]),
      ).toEqual([
        ["api", "info", "invoice created"],
        ["api", "debug", "request"],
      ]);
      expect(of(ids[index] as string)[0]?.invoice_id).toBe(invoice_id);
      expect(of(ids[index] as string)[1]).toMatchObject({
        method: "POST",
        route: "/api/invoices",
        path: "/api/invoices",
        status: 201,
      });
    }
    expect(of(invalidId)).toEqual([
      expect.objectContaining({ msg: "request", status: 400, route: "/api/invoices" }),
    ]);
    // Every line after start-up belongs to a request (the start-up probes of /health included).
    const listening = lines.findIndex((line) => line.msg === "listening");
    expect(listening).toBeGreaterThanOrEqual(0);
    for (const line of lines.slice(listening + 1))
      expect(line.request_id, JSON.stringify(line)).toEqual(expect.any(String));
    for (const line of lines)
      expect(Object.keys(line)).toEqual(
        expect.arrayContaining(["time", "level", "component", "msg"]),
      );
  });

  test("every line written during a job carries its job id and task, graphile-worker's included", async () => {
    stack = await startStack();
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest(),
    });
    const { invoice_id } = (await created.json()) as { invoice_id: string };
    // The vendor email was queued with the invoice; its job waits for a worker.
    const { rows } = await sql<{ id: string; email_id: string }>`
      select j.id::text as id, e.id::text as email_id
      from app.emails e join graphile_worker.jobs j on j.key = 'email:' || e.id
      where e.invoice_id = ${invoice_id}`.execute(stack.db);
    const job = rows[0];
    if (!job) throw new Error("no send_email job was queued");

    worker = stack.startWorker();
    const running = worker;
    await waitFor(
      "the job to complete",
      async () =>
        linesOf(running).some((line) => String(line.msg).startsWith(`Completed task ${job.id} `)),
      { timeoutMs: EVENT_MS },
    );

    const lines = linesOf(running);
    const ofJob = lines.filter((line) => line.job_id === job.id);
    expect(ofJob.map((line) => [line.component, line.msg])).toEqual(
      expect.arrayContaining([
        // Written by the task through a plain module logger: the id comes from the context.
        ["worker/email", "email sent"],
        ["worker/graphile/email", expect.stringMatching(/^Completed task \d+ \(send_email, /)],
      ]),
    );
    expect(ofJob.find((line) => line.msg === "email sent")?.email_id).toBe(job.email_id);
    for (const line of ofJob) expect(line.task).toBe("send_email");
    // No line of that task is missing the job's id.
    expect(lines.filter((line) => line.task === "send_email")).toEqual(ofJob);
    expect(lines).toContainEqual(
      expect.objectContaining({ component: "worker/graphile/email", level: "info" }),
    );
  });
});
