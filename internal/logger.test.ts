import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { graphileFields, graphileLogger, redactCredentials } from "./graphileLogger.ts";
import { withLogContext } from "./logContext.ts";
import { createLogger, createRootLogger } from "./logger.ts";

/** A logger writing into an array, one parsed JSON object per line. */
function capture(level = "debug") {
  const raw: string[] = [];
  const root = createRootLogger(level, { write: (line: string) => void raw.push(line) });
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { root, raw, lines };
}

describe("createLogger", () => {
  test("writes one JSON object per line: time, level, component, msg and the fields", () => {
    const { root, raw, lines } = capture();
    createLogger("api", root).info("listening", { address: "127.0.0.1:3000", skipped: undefined });
    expect(raw).toHaveLength(1);
    expect(raw[0]?.endsWith("\n")).toBe(true);
    expect(raw[0]?.trimEnd().includes("\n")).toBe(false);
    const [line] = lines();
    expect(line).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: "info",
      component: "api",
      msg: "listening",
      address: "127.0.0.1:3000",
    });
  });

  test("carries bigints as decimal strings, errors as their message, and never shadows its own keys", () => {
    const { root, lines } = capture();
    createLogger("worker", root).warn("odd", {
      amount: 123456789012345678901234567890n,
      error: new Error("boom"),
      level: "mine",
      component: "theirs",
    });
    expect(lines()[0]).toMatchObject({
      level: "warn",
      component: "worker",
      amount: "123456789012345678901234567890",
      error: "boom",
      _level: "mine",
      _component: "theirs",
    });
  });

  test("drops lines below LOG_LEVEL; child components are slash-separated", () => {
    const { root, lines } = capture("warn");
    const log = createLogger("remit", root);
    log.debug("d");
    log.info("i");
    log.child("indexer").error("exited", { code: 1 });
    expect(lines()).toEqual([
      expect.objectContaining({ component: "remit/indexer", msg: "exited" }),
    ]);
  });

  test("an unknown level falls back to info", () => {
    const { root, lines } = capture("verbose");
    const log = createLogger("x", root);
    log.debug("hidden");
    log.info("shown");
    expect(lines().map((line) => line.msg)).toEqual(["shown"]);
  });
});

describe("withLogContext", () => {
  test("every line written inside carries the context, across awaits, and concurrent units stay apart", async () => {
    const { root, lines } = capture();
    const log = createLogger("api", root);
    const deeper = createLogger("api/deeper", root);
    const handle = (id: string, wait: number) =>
      withLogContext({ request_id: id }, async () => {
        log.info("start");
        await delay(wait);
        deeper.debug("inside", { step: 2 });
        await withLogContext({ phase: "nested" }, async () => log.info("nested"));
      });
    await Promise.all([handle("a", 20), handle("b", 5)]);
    log.info("outside");

    const byMessage = (id: string) =>
      lines()
        .filter((line) => line.request_id === id)
        .map((line) => line.msg);
    expect(byMessage("a")).toEqual(["start", "inside", "nested"]);
    expect(byMessage("b")).toEqual(["start", "inside", "nested"]);
    expect(lines().find((line) => line.msg === "outside")).not.toHaveProperty("request_id");
    expect(lines().filter((line) => line.phase === "nested")).toHaveLength(2);
  });

  test("a line's fields stay on that line: they never leak into the context", () => {
    const { root, lines } = capture();
    const log = createLogger("api", root);
    withLogContext({ request_id: "r" }, () => {
      log.info("first", { invoice_id: "i-1" });
      log.info("second");
    });
    expect(lines()[1]).toEqual(expect.not.objectContaining({ invoice_id: expect.anything() }));
    expect(lines()[1]?.request_id).toBe("r");
  });

  test("a field named like a context key wins over the context", () => {
    const { root, lines } = capture();
    withLogContext({ request_id: "ctx" }, () =>
      createLogger("api", root).info("explicit", { request_id: "field" }),
    );
    expect(lines()[0]?.request_id).toBe("field");
  });
});

describe("graphileLogger", () => {
  test("turns the job row and the error into ids and a message, without the payload", () => {
    const fields = graphileFields(
      { label: "worker", workerId: "worker-1" },
      {
        job: { id: "42", task_identifier: "send_email", payload: { email_id: "secret-ish" } },
        error: new Error("smtp down"),
        duration: 12.3456,
        failure: true,
      },
    );
    expect(fields).toEqual({
      worker_id: "worker-1",
      task: "send_email",
      job_id: "42",
      duration_ms: 12.35,
      error: "smtp down",
    });
  });

  test("the missing crontab Remit never uses is not news at info level", () => {
    const { root, lines } = capture("info");
    const logger = graphileLogger(createLogger("worker/graphile", root));
    logger.info("Failed to read crontab file '/srv/remit/crontab'; cron is disabled");
    logger.info("Worker connected");
    expect(lines().map((line) => line.msg)).toEqual(["Worker connected"]);
  });

  test("writes graphile-worker's lines (warning included) as ours, with the job's scope", () => {
    const { root, lines } = capture();
    const logger = graphileLogger(createLogger("worker/graphile", root));
    logger.scope({ workerId: "w", taskIdentifier: "deliver_webhook", jobId: "7" }).info("hi");
    logger.warn("careful");
    expect(lines()).toEqual([
      expect.objectContaining({
        level: "info",
        component: "worker/graphile",
        msg: "hi",
        task: "deliver_webhook",
        job_id: "7",
        worker_id: "w",
      }),
      expect.objectContaining({ level: "warn", msg: "careful" }),
    ]);
  });

  test("masks database passwords: at debug graphile-worker prints its connection string", () => {
    const { root, raw } = capture();
    graphileLogger(createLogger("worker/graphile", root)).debug(
      "Worker pool options are { connectionString: 'postgres://remit:s3cr%40t@db:5432/remit' }",
    );
    expect(raw.join("")).not.toContain("s3cr");
    expect(raw.join("")).toContain("postgres://remit:***@db:5432/remit");
    expect(redactCredentials("postgresql://u:p@h/x and postgres://h/y")).toBe(
      "postgresql://u:***@h/x and postgres://h/y",
    );
  });
});
