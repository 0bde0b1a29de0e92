import { Command, CommanderError, Option } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { type ApiTarget, callApi, defaultApiUrl } from "./api.ts";
import { registerDbBackup } from "./dbBackup.ts";
import { CliError, EXIT, parseJson, printError, printJson, readStdin } from "./io.ts";
import { registerListen } from "./listen.ts";
import { pdfFileName } from "./pdfFileName.ts";
import { registerResourceCommands } from "./resources.ts";
import { saveDownload } from "./saveDownload.ts";
import type { Validation } from "./validate.ts";

// What only some commands need is imported by those commands, when they run: viem, the
// database, the API's schemas (zod) and the prompts took most of every command's start-up
// (`remit --version` and `remit invoices list` load none of them; bench/cliStartup.ts).
const validation = () => import("./validate.ts");
const depositCommands = () => import("./deposits.ts");

type CreateOptions = {
  stdin?: boolean;
  dryRun?: boolean;
  json?: boolean;
  api: string;
  apiKey?: string;
  idempotencyKey?: string;
  currency?: string;
};

/** The API and the key every call sends. */
const target = (options: { api: string; apiKey?: string }): ApiTarget => ({
  url: options.api,
  ...(options.apiKey ? { apiKey: options.apiKey } : {}),
});

const apiOption = () =>
  new Option("--api <url>", "the Remit API (default: http://localhost:$PORT, PORT 3000 unless set)")
    .env("REMIT_API_URL")
    .default(defaultApiUrl());
const jsonOption = () =>
  new Option("--json", "raw JSON out, and errors as JSON on stderr (the API's error shape)");
/** Prefer the environment: a flag's value is visible to other users of the machine (ps). */
const apiKeyOption = () =>
  new Option("--api-key <key>", "the merchant's API key, sent on every call").env("REMIT_API_KEY");

const currencyOption = () =>
  new Option(
    "--currency <code>",
    "what the amounts are in: USDC (the default), or USD, EUR or GBP, paid in USDC at the rate of Chainlink's feed on Base at payment",
  );

/**
 * Reads a request from stdin, with `--currency` as its `currency` (the JSON may name the same
 * one, not another), and validates it with the API's own schema.
 */
async function readRequest<T>(
  validate: () => Promise<(body: unknown) => Validation<T>>,
  currency?: string,
): Promise<T> {
  let body = parseJson(await readStdin(), "stdin");
  if (currency !== undefined && typeof body === "object" && body !== null && !Array.isArray(body)) {
    const named = (body as Record<string, unknown>).currency;
    if (named !== undefined && named !== currency)
      throw new CliError(
        `--currency ${currency}: the request on stdin has "currency": ${JSON.stringify(named)}`,
        EXIT.usage,
      );
    body = { ...body, currency };
  }
  const result = (await validate())(body);
  if (!result.ok) {
    throw new CliError(
      `${result.fields.length} field${result.fields.length === 1 ? "" : "s"} failed validation`,
      EXIT.invalid,
      result.fields,
    );
  }
  return result.value;
}

async function post(options: CreateOptions, path: string, body: unknown): Promise<void> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
  const answer = await callApi(target(options), path, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  // The API's response, unchanged.
  printJson(answer.text);
}

/** `acme-ltd-INV-0001.pdf`: the merchant's name and the invoice number, from the invoice. */
async function defaultPdfName(api: ApiTarget, id: string): Promise<string> {
  const invoice = (await callApi(api, `/api/invoices/${encodeURIComponent(id)}`)).body as {
    merchant_name_snapshot?: string;
    invoice_number?: string;
  };
  return pdfFileName(invoice.merchant_name_snapshot ?? "", invoice.invoice_number ?? id);
}

const program = new Command()
  .name("remit")
  .description("USDC invoices and payment links on Base, from the command line.")
  .version(packageJson.version)
  .showHelpAfterError()
  .exitOverride();

const invoices = program
  .command("invoices")
  .description("create, read, list, void and refund invoices");

invoices
  .command("create")
  .description(
    "create an invoice: JSON on stdin with --stdin (the body of POST /api/invoices), or interactively",
  )
  .option("--stdin", "read the request JSON from standard input")
  .option("--dry-run", "validate and show the totals; create nothing, call nothing")
  .option(
    "--idempotency-key <key>",
    "sent as the Idempotency-Key header: a retry creates nothing twice",
  )
  .addOption(currencyOption())
  .addOption(jsonOption())
  .addOption(apiOption())
  .addOption(apiKeyOption())
  .action(async (options: CreateOptions) => {
    if (!options.stdin) {
      if (!process.stdin.isTTY) {
        throw new CliError(
          "standard input is not a terminal: pass --stdin to read the invoice JSON from it",
          EXIT.usage,
        );
      }
      if (options.dryRun) throw new CliError("--dry-run needs --stdin", EXIT.usage);
      const { createInvoiceInteractively } = await import("./interactive.ts");
      await createInvoiceInteractively(target(options), options.currency);
      return;
    }
    const input = await readRequest(
      async () => (await validation()).validateInvoice,
      options.currency,
    );
    if (options.dryRun) return printJson((await validation()).invoicePreview(input));
    await post(options, "/api/invoices", input);
  });

for (const [name, description, path] of [
  ["get", "show an invoice (GET /api/invoices/{id})", ""],
  ["status", "show an invoice's status (GET /api/invoices/{id}/status)", "/status"],
] as const) {
  invoices
    .command(`${name} <id>`)
    .description(description)
    .addOption(jsonOption())
    .addOption(apiOption())
    .addOption(apiKeyOption())
    .action(async (id: string, options: CreateOptions) => {
      printJson(
        (await callApi(target(options), `/api/invoices/${encodeURIComponent(id)}${path}`)).text,
      );
    });
}

invoices
  .command("send <id>")
  .description("email a draft invoice to its vendor (POST /api/invoices/{id}/send)")
  .addOption(jsonOption())
  .addOption(apiOption())
  .addOption(apiKeyOption())
  .action(async (id: string, options: CreateOptions) => {
    printJson(
      (
        await callApi(target(options), `/api/invoices/${encodeURIComponent(id)}/send`, {
          method: "POST",
        })
      ).text,
    );
  });

invoices
  .command("pdf <id>")
  .description("download an invoice's PDF")
  .option(
    "-o, --output <file>",
    "where to write it (default: <merchant>-<invoice number>.pdf, e.g. acme-ltd-INV-0001.pdf)",
  )
  .addOption(jsonOption())
  .addOption(apiOption())
  .addOption(apiKeyOption())
  .action(async (id: string, options: CreateOptions & { output?: string }) => {
    const api = target(options);
    await saveDownload(api, `/api/invoices/${encodeURIComponent(id)}/pdf`, options.output, () =>
      defaultPdfName(api, id),
    );
  });

const links = program.command("links").description("create, list and refund payment links");
links
  .command("create")
  .description("create a payment link from JSON on stdin (the body of POST /api/links)")
  .requiredOption("--stdin", "read the request JSON from standard input")
  .option("--dry-run", "validate only; create nothing, call nothing")
  .option("--idempotency-key <key>", "sent as the Idempotency-Key header")
  .addOption(currencyOption())
  .addOption(jsonOption())
  .addOption(apiOption())
  .addOption(apiKeyOption())
  .action(async (options: CreateOptions) => {
    const input = await readRequest(
      async () => (await validation()).validateLink,
      options.currency,
    );
    if (options.dryRun) return printJson({ valid: true, request: input });
    await post(options, "/api/links", input);
  });

registerResourceCommands(program, { invoices, links }, (command) =>
  command.addOption(jsonOption()).addOption(apiOption()).addOption(apiKeyOption()),
);
registerListen(program, (command) => command.addOption(apiOption()).addOption(apiKeyOption()));

const deposits = program
  .command("deposits")
  .description("operator commands, run where the service runs: funds left on deposit addresses");
const depositOptions = (command: Command) =>
  command
    .addOption(
      new Option("--database-url <url>", "the service's Postgres")
        .env("DATABASE_URL")
        .default("postgres://postgres:postgres@127.0.0.1:54320/remit"),
    )
    .addOption(
      new Option("--rpc-url <url>", "the chain's JSON-RPC")
        .env("BASE_RPC_URL")
        .default("http://127.0.0.1:8545"),
    )
    .addOption(jsonOption());

depositOptions(deposits.command("list").description("deposit addresses still holding USDC")).action(
  async (options: { databaseUrl: string; rpcUrl: string }) => {
    const { depositsWithFunds } = await depositCommands();
    printJson(await depositsWithFunds(options));
  },
);

depositOptions(
  deposits
    .command("sweep")
    .description(
      "queue a sweep of every deposit address holding USDC (or of --address) to its merchant's wallet",
    ),
)
  .option("--address <address>", "only this deposit address")
  .action(async (options: { databaseUrl: string; rpcUrl: string; address?: string }) => {
    const { depositsWithFunds, queueSweeps } = await depositCommands();
    const funded = await depositsWithFunds(options);
    const chosen = options.address
      ? funded.filter((d) => d.deposit_address.toLowerCase() === options.address?.toLowerCase())
      : funded;
    await queueSweeps(
      options,
      chosen.map((d) => d.deposit_address),
    );
    printJson({ queued: chosen });
  });

const indexer = program
  .command("indexer")
  .description(
    "operator commands for upgrades: the indexer builds in the database, which one is current, and the cleanup of old ones",
  );
const indexerOptions = (command: Command) =>
  command
    .addOption(
      new Option(
        "--database-url <url>",
        "the service's Postgres as its owner (default: MIGRATION_DATABASE_URL, else DATABASE_URL, else the embedded one of DATA_DIR)",
      ).default(process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL || undefined),
    )
    .addOption(
      new Option("--data-dir <dir>", "the DATA_DIR of `npm start`")
        .env("DATA_DIR")
        .default("./.data"),
    )
    .addOption(jsonOption());
type IndexerOptions = { databaseUrl?: string; dataDir: string };
const indexerCommands = () => import("./indexerCommands.ts");

indexerOptions(
  indexer
    .command("status")
    .description(
      "every indexer build (schema idx_…): current (the indexer views point at it), ready, live (an indexer runs on it), its indexed block",
    ),
).action(async (options: IndexerOptions) => {
  printJson(await (await indexerCommands()).indexerStatus(options));
});
indexerOptions(
  indexer
    .command("wait <schema>")
    .description(
      "wait until the new release's build <schema> has taken over: current, backfilled, as far as every running build",
    ),
)
  .option("--timeout <seconds>", "give up after this long (exit 2)", "3600")
  .action(async (schema: string, options: IndexerOptions & { timeout: string }) => {
    const timeoutS = Number(options.timeout);
    if (!Number.isFinite(timeoutS) || timeoutS <= 0)
      throw new CliError("--timeout: a number of seconds above 0", EXIT.usage);
    printJson(
      await (await indexerCommands()).waitForIndexerBuild({ ...options, schema, timeoutS }),
    );
  });
indexerOptions(
  indexer
    .command("prune")
    .description(
      "drop the schemas of old indexer builds: never the current one, one a running indexer holds, or one in --keep",
    ),
)
  .option("--keep <schema...>", "builds to keep besides those (a release you may roll back to)", [])
  .action(async (options: IndexerOptions & { keep: string[] }) => {
    printJson(await (await indexerCommands()).pruneIndexer(options));
  });

program
  .command("merchants")
  .description("operator commands, run where the service runs: merchant accounts")
  .command("add")
  .description(
    "create (or find) a merchant, mark its email verified, and print a new API key alone on the last line",
  )
  .requiredOption("--email <email>", "the merchant's email (its invoices' merchant_email)")
  .option("--name <name>", "its registered business name, reserved to it")
  .addOption(
    new Option(
      "--database-url <url>",
      "the service's Postgres (default: the embedded one of DATA_DIR)",
    ).env("DATABASE_URL"),
  )
  .addOption(
    new Option("--data-dir <dir>", "the DATA_DIR of `npm start`")
      .env("DATA_DIR")
      .default("./.data"),
  )
  .addOption(jsonOption())
  .action(
    async (options: { email: string; name?: string; databaseUrl?: string; dataDir: string }) => {
      const { addMerchant } = await import("./merchants.ts");
      const added = await addMerchant(options);
      process.stderr.write(
        `merchant ${added.email} (${added.merchantId}): new write key ${added.keyId}; it is shown once, below\n`,
      );
      // The key alone on the last line: `KEY=$(remit merchants add … | tail -n 1)`.
      process.stdout.write(`${added.key}\n`);
    },
  );

const dev = program
  .command("dev")
  .description("development helpers for the local simulated chain (never a real one)");
dev
  .command("pay <target> <amount>")
  .description(
    "pay USDC from a development account: <target> is a deposit address, a hosted page's URL or a slug",
  )
  .option("--gasless", "sign an EIP-3009 authorization; another development account submits it")
  .option("--from <index>", "which of anvil's development accounts pays (0–7)", "0")
  .addOption(
    new Option("--rpc-url <url>", "the local chain (default: http://127.0.0.1:$ANVIL_PORT, 8545)")
      .env("REMIT_RPC_URL")
      .default(`http://127.0.0.1:${process.env.ANVIL_PORT || "8545"}`),
  )
  .addOption(jsonOption())
  .addOption(apiOption())
  .action(
    async (
      target: string,
      amount: string,
      options: { api: string; rpcUrl: string; from: string; gasless?: boolean },
    ) => {
      const from = Number(options.from);
      if (!Number.isInteger(from) || from < 0 || from > 7)
        throw new CliError("--from: a development account index from 0 to 7", EXIT.usage);
      const { devPay } = await import("./devPay.ts");
      printJson(
        await devPay(target, amount, {
          api: options.api,
          rpcUrl: options.rpcUrl,
          from,
          gasless: options.gasless === true,
        }),
      );
    },
  );

dev
  .command("rate <feed> <usd>")
  .description(
    "move a local price feed from the next block on: <feed> is EUR, GBP or USDC, <usd> the USD per unit (remit dev rate EUR 1.10)",
  )
  .addOption(
    new Option("--rpc-url <url>", "the local chain (default: http://127.0.0.1:$ANVIL_PORT, 8545)")
      .env("REMIT_RPC_URL")
      .default(`http://127.0.0.1:${process.env.ANVIL_PORT || "8545"}`),
  )
  .addOption(jsonOption())
  .action(async (feed: string, usd: string, options: { rpcUrl: string }) => {
    const { devRate } = await import("./devRate.ts");
    printJson(await devRate(feed, usd, options.rpcUrl));
  });

const database = program
  .command("db")
  .description("the service's database on your own Postgres: roles, migrations, backups");
database
  .command("roles")
  .description(
    "print the SQL (run once, as a superuser) that creates the owner role, the runtime role and the database",
  )
  .option("--owner <name>", "the owner role: migrations and the indexer run as it", "remit_owner")
  .option("--runtime <name>", "the runtime role of the API and the worker", "remit_app")
  .option("--database <name>", "the database", "remit")
  .action(async (options: { owner: string; runtime: string; database: string }) => {
    const { rolesSql } = await import("../db/runtimeRole.ts");
    process.stdout.write(rolesSql(options));
  });
database
  .command("migrate")
  .description(
    "apply the migrations as the owner (MIGRATION_DATABASE_URL, else DATABASE_URL) and grant DATABASE_URL's runtime role what it needs",
  )
  .action(async () => {
    const owner = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL;
    if (!owner)
      throw new CliError(
        "set MIGRATION_DATABASE_URL (the owner role) or DATABASE_URL: npm start migrates the embedded database itself",
        EXIT.usage,
      );
    const [{ migrate }, { grantRuntimeRole }] = await Promise.all([
      import("../db/migrate.ts"),
      import("../db/runtimeRole.ts"),
    ]);
    const applied = await migrate(owner);
    const runtime = process.env.DATABASE_URL;
    if (process.env.MIGRATION_DATABASE_URL && runtime) await grantRuntimeRole(owner, runtime);
    printJson({
      applied,
      runtime_role_granted: Boolean(process.env.MIGRATION_DATABASE_URL && runtime),
    });
  });

registerDbBackup(database);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here too, successfully.
    process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  const cliError =
    error instanceof CliError ? error : new CliError((error as Error).message, EXIT.unavailable);
  printError(cliError, process.argv.includes("--json"));
  process.exit(cliError.exitCode);
}
