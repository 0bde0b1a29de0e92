import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Command } from "commander";
import { type ApiTarget, callApi, unreachable, withApiKey } from "./api.ts";
import {
  type ApiOptions,
  type CommonOptions,
  created,
  field,
  filter,
  id,
  listCommand,
  postAndPrint,
  printRows,
  targetOf,
  timeRange,
} from "./commandKit.ts";
import { creditNoteCommands } from "./creditNoteCommands.ts";
import { CliError, EXIT, printJson } from "./io.ts";
import { payoutCommands, refundCommand } from "./moneyCommands.ts";
import { scheduleCommands } from "./scheduleCommands.ts";

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
      ...timeRange("created"),
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
    await postAndPrint(
      options,
      `/api/invoices/${id(key)}/void`,
      (b) => `${b.invoice_number ?? key}: ${b.status}`,
    );
  });

  common(
    invoices
      .command("remind <id>")
      .description(
        "email the vendor a payment reminder now (POST /api/invoices/{id}/remind): the amount still due, the PDF",
      ),
  ).action(async (key: string, options: ApiOptions) => {
    await postAndPrint(
      options,
      `/api/invoices/${id(key)}/remind`,
      (b) => `reminder ${b.reminder_id} queued: ${b.amount_due} USDC still due`,
    );
  });

  refundCommand(invoices, common, "invoices");
  creditNoteCommands(program, invoices, common);
  scheduleCommands(program, common);

  listCommand(links, common, {
    name: "list",
    path: "/api/links",
    what: "your payment links",
    filters: [
      filter("status", "link statuses (comma-separated)"),
      ...timeRange("created"),
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
  payoutCommands(program, common);

  listCommand(program.command("payments").description("payments received"), common, {
    name: "list",
    path: "/api/payments",
    what: "counted USDC payments to your invoices and links",
    filters: [
      filter("kind", "invoice or link"),
      filter("invoice_id", "one invoice's payments"),
      filter("link_id", "one link's payments"),
      filter("payer", "from this address"),
      ...timeRange("paid"),
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
    printRows(
      options,
      await callApi(targetOf(options), "/api/webhook-endpoints"),
      "data",
      [
        ["ID", field("id")],
        ["URL", field("url")],
        ["EVENTS", (r) => (Array.isArray(r.events) ? r.events.join(",") : "all")],
        ["ENABLED", field("enabled")],
      ],
      "no webhook endpoints",
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
    await postAndPrint(
      options,
      "/api/webhook-endpoints",
      (b) =>
        `endpoint ${b.id}: ${b.url} (${Array.isArray(b.events) ? b.events.join(",") : "every event"})\nsecret (shown once): ${b.secret}`,
      body,
    );
  });
  common(
    webhooks
      .command("test <id>")
      .description(
        "send a webhook.test event to an endpoint (POST /api/webhook-endpoints/{id}/test)",
      ),
  ).action(async (endpoint: string, options: ApiOptions) => {
    await postAndPrint(
      options,
      `/api/webhook-endpoints/${id(endpoint)}/test`,
      (b) => `queued ${b.type} ${b.event_id} (delivery ${b.delivery_id})`,
    );
  });
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
