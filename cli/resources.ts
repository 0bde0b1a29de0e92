import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Command, Option } from "commander";
import { formatUsdc, parseTypedUsdc } from "../domain/money.ts";
import { type ApiTarget, callApi, unreachable, withApiKey } from "./api.ts";
import { CliError, EXIT, parseJson, printJson, readStdin } from "./io.ts";

/** What every command that calls the API takes. */
export type ApiOptions = { api: string; apiKey?: string; json?: boolean };
type Row = Record<string, unknown>;
type Page = { data: Row[]; next_cursor: string | null };

/** Adds --api, --api-key and --json: the options `main.ts` builds, passed in to share them. */
export type CommonOptions = (command: Command) => Command;

export const targetOf = (options: ApiOptions): ApiTarget => ({
  url: options.api,
  ...(options.apiKey ? { apiKey: options.apiKey } : {}),
});

const id = (value: string) => encodeURIComponent(value);

/** A typed amount (`100`, `19.5`) as the API's decimal string; the one parser of typed amounts. */
export function typedAmount(flag: string, typed: string): string {
  const parsed = parseTypedUsdc(typed);
  if (!parsed.ok) throw new CliError(`${flag}: ${parsed.message}`, EXIT.usage);
  return formatUsdc(parsed.units);
}

/** A filter flag of a list: `--status <status>` sent as `?status=`. */
type Filter = { flag: string; param: string; description: string; amount?: boolean };
const filter = (param: string, description: string, amount = false): Filter => ({
  flag: `--${param.replaceAll("_", "-")} <value>`,
  param,
  description,
  amount,
});
const camel = (param: string) => param.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/** Columns of the readable table: a header and how to read it from a row. */
type Column = [header: string, read: (row: Row) => unknown];
const field =
  (name: string): Column[1] =>
  (row) =>
    row[name];

/** Rows as aligned columns; empty values as "-". */
export function table(rows: Row[], columns: Column[]): string {
  const cells = rows.map((row) =>
    columns.map(([, read]) => {
      const value = read(row);
      return value === null || value === undefined || value === "" ? "-" : String(value);
    }),
  );
  const headers = columns.map(([header]) => header);
  const widths = headers.map((h, i) =>
    Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...cells.map(line)].join("\n");
}

/**
 * A list command: one page (`--limit`, `--cursor`) or every page (`--all`, following
 * `next_cursor`), filtered. `--json`: the API's page unchanged, or with `--all` every row in one
 * `{data, next_cursor: null}`. Otherwise a table, and on stderr how to ask for the next page.
 */
function listCommand(
  parent: Command,
  common: CommonOptions,
  spec: { name: string; path: string; what: string; filters: Filter[]; columns: Column[] },
): void {
  const command = parent
    .command(spec.name)
    .description(`${spec.what} (GET ${spec.path}), newest first`)
    .option("--limit <n>", "rows a page, 1–200 (the API's default: 50)")
    .option("--cursor <cursor>", "start at this page: a previous page's next_cursor")
    .option("--all", "every page, following next_cursor to the end");
  for (const f of spec.filters) command.addOption(new Option(f.flag, f.description));
  common(command).action(async (options: ApiOptions & Record<string, string | boolean>) => {
    const query = new URLSearchParams();
    if (typeof options.limit === "string") query.set("limit", options.limit);
    for (const f of spec.filters) {
      const value = options[camel(f.param)];
      if (typeof value !== "string") continue;
      query.set(
        f.param,
        f.amount ? typedAmount(`--${f.param.replaceAll("_", "-")}`, value) : value,
      );
    }
    let cursor = typeof options.cursor === "string" ? options.cursor : null;
    const rows: Row[] = [];
    let next: string | null = null;
    do {
      const params = new URLSearchParams(query);
      if (cursor) params.set("cursor", cursor);
      const qs = params.toString();
      const answer = await callApi(targetOf(options), `${spec.path}${qs ? `?${qs}` : ""}`);
      const page = answer.body as Page;
      if (!options.all && options.json) return printJson(answer.text);
      rows.push(...page.data);
      next = page.next_cursor;
      cursor = next;
    } while (options.all && cursor);
    if (options.json) return printJson({ data: rows, next_cursor: null });
    if (rows.length === 0) process.stderr.write("no rows\n");
    else process.stdout.write(`${table(rows, spec.columns)}\n`);
    if (next) process.stderr.write(`more: --cursor ${next} (or --all)\n`);
  });
}

/** A command that prints the API's answer: JSON with --json, else `readable(body)`. */
function printAnswer(options: ApiOptions, text: string, readable: (body: Row) => string): void {
  if (options.json) printJson(text);
  else process.stdout.write(`${readable(JSON.parse(text) as Row)}\n`);
}

const refundLine = (r: Row) =>
  [
    `refund ${r.refund_id}: ${r.status}, ${r.amount} USDC from ${r.source}`,
    r.to ? `to ${r.to}` : r.to_sender ? "to the sender" : "",
    r.claim_url ? `\nclaim link (shown once): ${r.claim_url}` : "",
  ]
    .filter(Boolean)
    .join(" ");

function refundCommand(parent: Command, common: CommonOptions, what: "invoices" | "links"): void {
  const arg = what === "invoices" ? "<id>" : "<slug>";
  common(
    parent
      .command(`refund ${arg}`)
      .description(
        `refund a payment (POST /api/${what}/${arg.slice(1, -1) === "id" ? "{id}" : "{slug}"}/refunds): to --to, to the sender (--to-sender), or neither for a one-time claim link`,
      )
      .option("--amount <usdc>", "how much, e.g. 12.50 (default: everything refundable)")
      .option("--to <address>", "the address on Base to send it to")
      .option("--to-sender", "to the address the payment came from")
      .option("--idempotency-key <key>", "sent as the Idempotency-Key header"),
  ).action(
    async (
      key: string,
      options: ApiOptions & {
        amount?: string;
        to?: string;
        toSender?: boolean;
        idempotencyKey?: string;
      },
    ) => {
      const body = {
        ...(options.amount !== undefined
          ? { amount: typedAmount("--amount", options.amount) }
          : {}),
        ...(options.to !== undefined ? { to: options.to } : {}),
        ...(options.toSender ? { to_sender: true } : {}),
      };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
      const answer = await callApi(targetOf(options), `/api/${what}/${id(key)}/refunds`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      printAnswer(options, answer.text, refundLine);
    },
  );
}

const created = field("created_at");

export function registerResourceCommands(
  program: Command,
  groups: { invoices: Command; links: Command },
  common: CommonOptions,
): void {
  const { invoices, links } = groups;

  listCommand(invoices, common, {
    name: "list",
    path: "/api/invoices",
    what: "your invoices",
    filters: [
      filter("status", "draft, sent, overdue, paid, void… (comma-separated)"),
      filter("created_from", "created on or after: YYYY-MM-DD or an ISO time"),
      filter("created_to", "created on or before: YYYY-MM-DD (the whole day) or an ISO time"),
      filter("due_from", "due on or after YYYY-MM-DD"),
      filter("due_to", "due on or before YYYY-MM-DD"),
      filter("amount_min", "total at least this, in USDC (100, 99.50)", true),
      filter("amount_max", "total at most this, in USDC", true),
      filter("q", "search number, vendor and line items"),
    ],
    columns: [
      ["NUMBER", field("invoice_number")],
      ["STATUS", field("status")],
      ["VENDOR", field("vendor_name")],
      ["TOTAL", field("total_amount")],
      ["DUE", field("amount_due")],
      ["DUE DATE", field("due_date")],
      ["ID", field("invoice_id")],
    ],
  });

  common(
    invoices
      .command("void <id>")
      .description("void an unpaid invoice (POST /api/invoices/{id}/void)"),
  ).action(async (key: string, options: ApiOptions) => {
    const answer = await callApi(targetOf(options), `/api/invoices/${id(key)}/void`, {
      method: "POST",
    });
    printAnswer(options, answer.text, (b) => `${b.invoice_number ?? key}: ${b.status}`);
  });

  common(
    invoices
      .command("remind <id>")
      .description(
        "email the vendor a payment reminder now (POST /api/invoices/{id}/remind): the amount still due, the PDF",
      ),
  ).action(async (key: string, options: ApiOptions) => {
    const answer = await callApi(targetOf(options), `/api/invoices/${id(key)}/remind`, {
      method: "POST",
    });
    printAnswer(
      options,
      answer.text,
      (b) => `reminder ${b.reminder_id} queued: ${b.amount_due} USDC still due`,
    );
  });

  refundCommand(invoices, common, "invoices");
  scheduleCommands(program, common);

  listCommand(links, common, {
    name: "list",
    path: "/api/links",
    what: "your payment links",
    filters: [
      filter("status", "link statuses (comma-separated)"),
      filter("created_from", "created on or after: YYYY-MM-DD or an ISO time"),
      filter("created_to", "created on or before: YYYY-MM-DD (the whole day) or an ISO time"),
      filter("amount_min", "amount at least this, in USDC", true),
      filter("amount_max", "amount at most this, in USDC", true),
      filter("q", "search slug and description"),
    ],
    columns: [
      ["SLUG", field("slug")],
      ["STATUS", field("status")],
      ["AMOUNT", field("amount")],
      ["RECEIVED", field("amount_received")],
      ["DESCRIPTION", field("description")],
      ["CREATED", created],
    ],
  });

  common(
    links.command("get <slug>").description("show a payment link (GET /api/links/{slug}) as JSON"),
  ).action(async (slug: string, options: ApiOptions) => {
    printJson((await callApi(targetOf(options), `/api/links/${id(slug)}`)).text);
  });

  refundCommand(links, common, "links");

  listCommand(program.command("payments").description("payments received"), common, {
    name: "list",
    path: "/api/payments",
    what: "counted USDC payments to your invoices and links",
    filters: [
      filter("kind", "invoice or link"),
      filter("invoice_id", "one invoice's payments"),
      filter("link_id", "one link's payments"),
      filter("payer", "from this address"),
      filter("paid_from", "paid on or after: YYYY-MM-DD or an ISO time"),
      filter("paid_to", "paid on or before: YYYY-MM-DD (the whole day) or an ISO time"),
      filter("amount_min", "at least this, in USDC", true),
      filter("amount_max", "at most this, in USDC", true),
    ],
    columns: [
      ["PAID AT", field("paid_at")],
      ["KIND", field("kind")],
      ["FOR", (r) => r.invoice_number ?? r.slug ?? r.invoice_id ?? r.link_id],
      ["AMOUNT", field("amount")],
      ["PAYER", field("payer")],
      ["TX", field("tx_hash")],
    ],
  });

  const exports = program.command("export").description("CSV exports");
  for (const what of ["invoices", "payments"] as const) {
    common(
      exports
        .command(what)
        .description(`the ${what} CSV (GET /api/exports/${what}.csv), to stdout or -o <file>`)
        .option("--from <when>", "from: YYYY-MM-DD or an ISO time (included)")
        .option("--to <when>", "to: YYYY-MM-DD (the whole day) or an ISO time")
        .option("-o, --output <file>", "write it to this file instead of stdout"),
    ).action(async (options: ApiOptions & { from?: string; to?: string; output?: string }) => {
      const params = new URLSearchParams();
      if (options.from) params.set("from", options.from);
      if (options.to) params.set("to", options.to);
      const qs = params.toString();
      await streamCsv(
        targetOf(options),
        `/api/exports/${what}.csv${qs ? `?${qs}` : ""}`,
        options.output,
      );
    });
  }

  listCommand(program.command("events").description("your event log"), common, {
    name: "list",
    path: "/api/events",
    what: "every event of your invoices and links, as delivered",
    filters: [filter("type", "only these event types (comma-separated), e.g. invoice.paid")],
    columns: [
      ["CREATED", created],
      ["TYPE", field("type")],
      ["FOR", (r) => r.invoice_number ?? r.slug ?? r.invoice_id ?? r.link_id ?? r.endpoint_id],
      ["EVENT", field("event_id")],
    ],
  });

  const webhooks = program.command("webhooks").description("your webhook endpoints");
  common(
    webhooks.command("list").description("your webhook endpoints (GET /api/webhook-endpoints)"),
  ).action(async (options: ApiOptions) => {
    const answer = await callApi(targetOf(options), "/api/webhook-endpoints");
    if (options.json) return printJson(answer.text);
    const rows = (answer.body as { data: Row[] }).data;
    if (rows.length === 0) return void process.stderr.write("no webhook endpoints\n");
    process.stdout.write(
      `${table(rows, [
        ["ID", field("id")],
        ["URL", field("url")],
        ["EVENTS", (r) => (Array.isArray(r.events) ? r.events.join(",") : "all")],
        ["ENABLED", field("enabled")],
      ])}\n`,
    );
  });
  common(
    webhooks
      .command("add <url>")
      .description(
        "add a webhook endpoint (POST /api/webhook-endpoints); prints its secret, shown once",
      )
      .option("--events <types>", "only these event types, comma-separated (default: all)"),
  ).action(async (url: string, options: ApiOptions & { events?: string }) => {
    const body = {
      url,
      ...(options.events ? { events: options.events.split(",").map((e) => e.trim()) } : {}),
    };
    const answer = await callApi(targetOf(options), "/api/webhook-endpoints", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    printAnswer(
      options,
      answer.text,
      (b) =>
        `endpoint ${b.id}: ${b.url} (${Array.isArray(b.events) ? b.events.join(",") : "every event"})\nsecret (shown once): ${b.secret}`,
    );
  });
  common(
    webhooks
      .command("test <id>")
      .description(
        "send a webhook.test event to an endpoint (POST /api/webhook-endpoints/{id}/test)",
      ),
  ).action(async (endpoint: string, options: ApiOptions) => {
    const answer = await callApi(targetOf(options), `/api/webhook-endpoints/${id(endpoint)}/test`, {
      method: "POST",
    });
    printAnswer(
      options,
      answer.text,
      (b) => `queued ${b.type} ${b.event_id} (delivery ${b.delivery_id})`,
    );
  });
}

/** `remit schedules …`: invoice schedules (docs/cli.md). */
function scheduleCommands(program: Command, common: CommonOptions): void {
  const schedules = program.command("schedules").description("your invoice schedules");
  const line = (b: Row) =>
    `schedule ${b.schedule_id}: ${b.status}, ${b.interval}${b.n ? ` (${b.n} days)` : ""}, next ${b.next_issue_date ?? "-"}, ${b.issued_count} issued`;
  listCommand(schedules, common, {
    name: "list",
    path: "/api/invoice-schedules",
    what: "your invoice schedules",
    filters: [filter("status", "active, paused, cancelled, completed (comma-separated)")],
    columns: [
      ["ID", field("schedule_id")],
      ["STATUS", field("status")],
      ["INTERVAL", field("interval")],
      ["NEXT", field("next_issue_date")],
      ["ISSUED", field("issued_count")],
      ["VENDOR", (r) => (r.invoice as Row | undefined)?.vendor_name],
    ],
  });
  common(
    schedules
      .command("create")
      .description("create a schedule from JSON on stdin: the body of POST /api/invoice-schedules")
      .option("--stdin", "read the request JSON from standard input (the only way)"),
  ).action(async (options: ApiOptions) => {
    const body = parseJson(await readStdin(), "stdin");
    const answer = await callApi(targetOf(options), "/api/invoice-schedules", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    printAnswer(options, answer.text, line);
  });
  common(
    schedules
      .command("run <id>")
      .description("issue the schedule's next invoice now (POST /api/invoice-schedules/{id}/run)"),
  ).action(async (key: string, options: ApiOptions) => {
    const answer = await callApi(targetOf(options), `/api/invoice-schedules/${id(key)}/run`, {
      method: "POST",
    });
    printAnswer(
      options,
      answer.text,
      (b) => `${b.invoice_number}: ${b.total_amount} USDC, ${b.status} (${b.invoice_id})`,
    );
  });
  for (const action of ["pause", "resume", "cancel"] as const) {
    common(
      schedules
        .command(`${action} <id>`)
        .description(`${action} a schedule (POST /api/invoice-schedules/{id}/${action})`),
    ).action(async (key: string, options: ApiOptions) => {
      const answer = await callApi(
        targetOf(options),
        `/api/invoice-schedules/${id(key)}/${action}`,
        {
          method: "POST",
        },
      );
      printAnswer(options, answer.text, line);
    });
  }
}

/** Streams a CSV from the API to a file or stdout, never holding it whole. */
async function streamCsv(target: ApiTarget, path: string, output?: string): Promise<void> {
  const url = `${target.url.replace(/\/+$/, "")}${path}`;
  const response = await fetch(url, { headers: withApiKey(target) }).catch((error: Error) => {
    throw unreachable(url, error);
  });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as {
      error?: { message?: string; fields?: [] };
    };
    throw new CliError(
      body.error?.message ?? `HTTP ${response.status}`,
      response.status >= 500 ? EXIT.unavailable : EXIT.invalid,
      body.error?.fields,
    );
  }
  const source = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  if (output) {
    await pipeline(source, createWriteStream(output));
    process.stderr.write(`wrote ${output}\n`);
  } else {
    await pipeline(source, process.stdout, { end: false });
  }
}
