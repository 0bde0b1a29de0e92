import { availableParallelism } from "node:os";
import { z } from "zod";
import { optionalUrl, port } from "./values.ts";

/** Which processes run and what each gets: data directory, build, database pools, PDF render threads, worker slots, the test clock. Part of internal/env.ts's schema; `.env.example` documents each. */
export const processSettings = {
  DATA_DIR: z.string().min(1).default("./.data"),
  /**
   * Which of the three processes this `npm start` runs: one host runs the indexer, any
   * number run `api,worker` replicas against the same database (docs/operations.md, "Production").
   */
  PROCESSES: z
    .string()
    .default("indexer,api,worker")
    .transform((list) => list.split(",").map((name) => name.trim()))
    .pipe(
      z.array(z.enum(["indexer", "api", "worker"], "must list indexer, api and/or worker")).min(1),
    ),
  /**
   * Where `npm start` keeps the JavaScript it bundles from the sources (platform/build.mjs,
   * which reads it itself: it runs before this module). Default node_modules/.cache/remit.
   */
  REMIT_BUILD_CACHE: z.string().min(1).optional(),
  /**
   * "vite": the indexer builds its code with Ponder's own Vite build, as before bundling,
   * instead of executing the bundles (indexer/prebuilt/; read by platform/children.ts).
   */
  PONDER_BUILD: z.enum(["bundled", "vite"]).optional(),
  DATABASE_URL: optionalUrl,
  /**
   * The owner role (owns the database and its schemas): the migrations and the indexer run as
   * it, and the API and worker as DATABASE_URL's role, which the migrations grant only what the
   * service needs (db/runtimeRole.ts). Unset: one role, DATABASE_URL's, as before.
   */
  MIGRATION_DATABASE_URL: optionalUrl,
  /**
   * "true": in mainnet mode, run the API and worker as a superuser or the tables' owner anyway
   * (refused otherwise: such a role can undo the append-only invoice record).
   */
  ALLOW_DATABASE_OWNER: z.enum(["true", "false"]).optional(),
  EMBEDDED_PG_PORT: port.default(54320),
  /** The API's database pool: connections per process, and how long a request may wait for one. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  // Generous enough for a burst of creations queueing on one merchant's numbering lock (their
  // PDFs are rendered before it); bounded, so a stuck database is a 503, never a hang.
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Cap on one API statement (lock waits included): past it the request gets a 503. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /**
   * Threads rendering invoice PDFs in the API process (pdf/renderPool.ts); default: the cores.
   * They start under load and stop after 30 s idle (PDF_RENDER_WARM_THREADS stay).
   */
  PDF_RENDER_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(() => availableParallelism()),
  /**
   * Nice value of the API's PDF render threads (0–19, per thread on Linux; the worker's have
   * WORKER_RENDER_NICE): above the API's own 0, the kernel runs the event loop (status polls)
   * before a render (docs/architecture.md).
   */
  PDF_RENDER_NICE: z.coerce.number().int().min(0).max(19).default(0),
  /**
   * Nice value of the worker's render threads. Its renders are background work (no one waits
   * on a stored PDF; a download before it renders on the spot in the API, at PDF_RENDER_NICE),
   * so by default they yield the cores to requests: at 0 they cost creation at 4 clients on
   * 2 cores a third of its rate (docs/benchmarks.md, "Render priority in the worker").
   */
  WORKER_RENDER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * Render threads kept while no invoice is being created (each holds pdfmake and its fonts,
   * ~50 MB). 0: the first render after a quiet spell starts a thread (~0.5 s more for that
   * one invoice); threads stay while renders keep coming and stop after 30 s idle.
   */
  PDF_RENDER_WARM_THREADS: z.coerce.number().int().min(0).max(64).default(0),
  /**
   * The worker's slots per queue (worker/queues.ts): payment detection, emails, webhook
   * deliveries, chain transactions (sweeps). Each queue has its own; none can take another's.
   */
  WORKER_PAYMENTS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WORKER_EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
  WORKER_WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
  WORKER_CHAIN_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /** The worker's slots for invoice schedules and reminders (each issue renders a PDF). */
  WORKER_SCHEDULES_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * `on`: the scheduler and reminders read the time from the test clock, an offset stored in
   * the database (app.test_clock), so tests step through months (docs/development.md, "The test
   * clock"). Refused with BASE_RPC_URL: never on a real chain.
   */
  TEST_CLOCK: z.enum(["on", "off"]).default("off"),
};
