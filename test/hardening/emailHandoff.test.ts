import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * A worker killed between SendGrid's 202 and marking the email sent leaves it `sending`. The
 * next attempt asks SendGrid's activity feed (here the capture endpoint's implementation of
 * it) and sends only if the message never arrived: one email either way.
 */
describe("email hand-over after a crash mid-send", () => {
  let stack: TestStack;
  let worker: TestProcess | undefined;
  beforeEach(async () => {
    stack = await startStack();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await stack?.stop();
  });

  const runWorker = () => {
    worker = stack.startWorker();
  };

  const createInvoice = async () => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest(),
    });
    expect(response.status).toBe(201);
    const { invoice_id } = (await response.json()) as { invoice_id: string };
    return stack.db
      .selectFrom("app.emails")
      .selectAll()
      .where("invoice_id", "=", invoice_id)
      .executeTakeFirstOrThrow();
  };

  const sentOnce = async (id: string) => {
    await waitFor("the email to be marked sent", async () => {
      const row = await stack.db
        .selectFrom("app.emails")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirst();
      return row?.status === "sent";
    });
    const captured = await stack.waitForEmail((email) => email.id === id);
    expect(captured.deliveries).toBe(1);
  };

  test("an email that reached SendGrid before the crash is marked sent, not sent again", async () => {
    runWorker();
    const email = await createInvoice();
    await sentOnce(email.id);
    await worker?.stop();
    // The state a crash right after the 202 leaves behind, and its job retried.
    await stack.db
      .updateTable("app.emails")
      .set({ status: "sending", sent_at: null })
      .where("id", "=", email.id)
      .execute();
    await sql`select graphile_worker.add_job('send_email', json_build_object('email_id', ${email.id}::uuid))`.execute(
      stack.db,
    );
    runWorker();
    await sentOnce(email.id);
    await waitFor("the worker to say why it did not send", async () =>
      worker?.output().includes("had already reached SendGrid"),
    );
  });

  test("an email whose hand-over never arrived is sent on the next attempt", async () => {
    const email = await createInvoice();
    await stack.db
      .updateTable("app.emails")
      .set({ status: "sending" })
      .where("id", "=", email.id)
      .execute();
    expect(await stack.outbox()).toHaveLength(0);
    runWorker();
    await sentOnce(email.id);
  });
});
