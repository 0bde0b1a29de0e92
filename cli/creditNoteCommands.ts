import { randomUUID } from "node:crypto";
import { type Command, Option } from "commander";
import { callApi } from "./api.ts";
import {
  type ApiOptions,
  type CommonOptions,
  field,
  id,
  printAnswer,
  printRows,
  type Row,
  targetOf,
} from "./commandKit.ts";
import { CliError, EXIT, parseJson, printJson, readStdin } from "./io.ts";
import { saveDownload } from "./saveDownload.ts";

/** `remit credit-notes …` and `remit invoices einvoice`: correcting invoices, and filing them. */

type CreateOptions = ApiOptions & {
  full?: boolean;
  stdin?: boolean;
  reason?: string;
  yes?: boolean;
  idempotencyKey?: string;
};

const creditNoteLine = (b: Row) =>
  `${b.credit_note_number} credits ${b.invoice_number}: ${b.total_amount} USDC (subtotal ${b.subtotal_amount}, tax ${b.tax_amount})${b.full ? ", in full" : ""}\n${b.pdf_url}`;

/** The body of `POST /api/invoices/{id}/credit-notes` from the flags and stdin, unchecked. */
async function requestBody(options: CreateOptions): Promise<unknown> {
  if (options.full && options.stdin)
    throw new CliError("--full or --stdin (the lines), not both", EXIT.usage);
  if (!options.full && !options.stdin)
    throw new CliError(
      "say what to credit: --full (everything the invoice still asks for), or --stdin with the lines as JSON",
      EXIT.usage,
    );
  const reason = options.reason === undefined ? {} : { reason: options.reason };
  if (options.full) return { full: true, ...reason };
  const body = parseJson(await readStdin(), "stdin");
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  if ("reason" in body && options.reason !== undefined)
    throw new CliError("a reason on stdin and --reason: give one", EXIT.usage);
  return { ...body, ...reason };
}

/** A creation's request checked with the API's schema before anything is asked or sent. */
async function validatedBody(options: CreateOptions) {
  const body = await requestBody(options);
  const result = (await import("./validate.ts")).validateCreditNote(body);
  if (!result.ok)
    throw new CliError(
      `${result.fields.length} field${result.fields.length === 1 ? "" : "s"} failed validation`,
      EXIT.invalid,
      result.fields,
    );
  return result.value;
}

/** `--format ubl|cii|facturx` and `-o`: a command that downloads an e-invoice. */
function eInvoiceCommand(parent: Command, common: CommonOptions, path: string): void {
  const what = path === "invoices" ? "an invoice" : "a credit note";
  common(
    parent
      .command("einvoice <id>")
      .description(
        `download ${what} as an EN 16931 e-invoice (GET /api/${path}/{id}/einvoice); refused with the fields to add when it lacks what EN 16931 requires`,
      )
      .addOption(
        new Option(
          "--format <format>",
          "ubl (UBL 2.1, Peppol BIS Billing 3.0), cii (UN/CEFACT CII) or facturx (its PDF as Factur-X)",
        )
          .choices(["ubl", "cii", "facturx"])
          .makeOptionMandatory(),
      )
      .option(
        "-o, --output <file>",
        "where to write it (default: the name the API gives, e.g. INV-0001-ubl.xml)",
      ),
  ).action(async (key: string, options: ApiOptions & { format: string; output?: string }) => {
    await saveDownload(
      targetOf(options),
      `/api/${path}/${id(key)}/einvoice?format=${options.format}`,
      options.output,
      (suggested) =>
        suggested ?? `${key}-${options.format}.${options.format === "facturx" ? "pdf" : "xml"}`,
    );
  });
}

export function creditNoteCommands(program: Command, invoices: Command, common: CommonOptions) {
  eInvoiceCommand(invoices, common, "invoices");
  const notes = program
    .command("credit-notes")
    .description("correct or cancel an issued invoice: credit notes, their PDFs and e-invoices");

  common(
    notes
      .command("create <invoice_id>")
      .description(
        "issue a credit note on an invoice (POST /api/invoices/{id}/credit-notes): --full, or the lines as JSON with --stdin; asks first on a terminal",
      )
      .option("--full", "credit everything the invoice still asks for")
      .option(
        "--stdin",
        'read the request JSON from standard input: {"lines": [...], "reason": "…"}, lines shaped like an invoice\'s line_items',
      )
      .option("--reason <text>", "why the invoice is corrected: printed on the credit note")
      .option("-y, --yes", "issue it without asking (a terminal asks; a script never does)")
      .option(
        "--idempotency-key <key>",
        "sent as the Idempotency-Key header (default: a new one: run again with the same key to retry safely)",
      ),
  ).action(async (invoiceId: string, options: CreateOptions) => {
    const body = await validatedBody(options);
    if (!options.yes && process.stdin.isTTY && process.stderr.isTTY) {
      const { confirmCreditNote } = await import("./confirmCreditNote.ts");
      await confirmCreditNote(targetOf(options), invoiceId, body);
    }
    const answer = await callApi(targetOf(options), `/api/invoices/${id(invoiceId)}/credit-notes`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "idempotency-key": options.idempotencyKey ?? randomUUID(),
      },
      body: JSON.stringify(body),
    });
    printAnswer(options, answer.text, creditNoteLine);
  });

  common(
    notes
      .command("list")
      .description("your newest 100 credit notes, newest first (GET /api/credit-notes)")
      .option("--invoice-id <id>", "only this invoice's")
      .addOption(new Option("--invoice <id>", "the same as --invoice-id").hideHelp()),
  ).action(async (options: ApiOptions & { invoiceId?: string; invoice?: string }) => {
    const invoiceId = options.invoiceId ?? options.invoice;
    printRows(
      options,
      await callApi(
        targetOf(options),
        `/api/credit-notes${invoiceId ? `?invoice_id=${id(invoiceId)}` : ""}`,
      ),
      "credit_notes",
      [
        ["NUMBER", field("credit_note_number")],
        ["INVOICE", field("invoice_number")],
        ["ISSUED", field("issue_date")],
        ["TOTAL", field("total_amount")],
        ["REASON", field("reason")],
        ["ID", field("credit_note_id")],
      ],
      "no credit notes",
    );
  });

  common(
    notes
      .command("get <id>")
      .description("show a credit note (GET /api/credit-notes/{id}) as JSON"),
  ).action(async (key: string, options: ApiOptions) => {
    printJson((await callApi(targetOf(options), `/api/credit-notes/${id(key)}`)).text);
  });

  common(
    notes
      .command("pdf <id>")
      .description("download a credit note's PDF (GET /api/credit-notes/{id}/pdf)")
      .option("-o, --output <file>", "where to write it (default: its number, e.g. CN-0001.pdf)"),
  ).action(async (key: string, options: ApiOptions & { output?: string }) => {
    await saveDownload(
      targetOf(options),
      `/api/credit-notes/${id(key)}/pdf`,
      options.output,
      (suggested) => suggested ?? `${key}.pdf`,
    );
  });

  eInvoiceCommand(notes, common, "credit-notes");
}
