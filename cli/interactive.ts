import * as p from "@clack/prompts";
import type { z } from "zod";
import { CreateInvoiceSchema, LineItemSchema } from "../app/invoices/schema.ts";
import { currencyAmountProblem } from "../app/schemaFields.ts";
import { CURRENCIES, type Currency } from "../domain/currencies.ts";
import { utcToday } from "../domain/invoiceStatus.ts";
import { type ApiTarget, callApi } from "./api.ts";
import { CliCancelled, CliError, EXIT } from "./io.ts";
import {
  defaultDueDate,
  promptAddress,
  promptAmount,
  promptAmountProblem,
  promptQuantity,
} from "./promptValues.ts";
import { invoicePreview, validateCurrency, validateInvoice } from "./validate.ts";

const fields = CreateInvoiceSchema.shape;

/** A prompt validator from a field's own zod schema: the API's message, as you type. */
const check =
  (
    schema: z.ZodType,
    transform: (value: string) => unknown = (value) => value,
    optional = false,
    problem: (typed: string) => string | undefined = () => undefined,
  ) =>
  (value: string | undefined): string | undefined => {
    if (optional && !value) return undefined;
    const refused = problem(value ?? "");
    if (refused) return refused;
    const result = schema.safeParse(transform(value ?? ""));
    return result.success ? undefined : result.error.issues[0]?.message;
  };

/** Ctrl-C (or Escape) at any prompt ends the flow before anything is created. */
function answered<T>(value: T | symbol): T {
  if (p.isCancel(value)) {
    p.cancel("Cancelled: nothing was created.");
    throw new CliCancelled();
  }
  return value as T;
}

/**
 * One prompt, checked as typed with the field's schema after `transform` (what the typed text
 * means: see promptValues.ts). Never pre-filled: a placeholder shows an example or the default
 * that an empty answer takes, so no character the user did not type reaches a value.
 */
const ask = async <T = string>(
  message: string,
  schema: z.ZodType,
  options: {
    optional?: boolean;
    placeholder?: string;
    /** What an empty answer takes, shown once answered (not a blank line). */
    defaultValue?: string;
    transform?: (typed: string) => T;
    /** Why the typed text is refused before the schema is asked (the amount parser's words). */
    problem?: (typed: string) => string | undefined;
  } = {},
): Promise<T | undefined> => {
  const transform = options.transform ?? ((typed: string) => typed as T);
  const value = answered<string | undefined>(
    await p.text({
      message,
      placeholder: options.placeholder,
      defaultValue: options.defaultValue,
      validate: check(schema, (typed) => transform(typed), options.optional, options.problem),
    }),
  );
  return value === "" && options.optional ? undefined : transform(value ?? "");
};

/**
 * `remit invoices create` on a terminal: every field prompted and checked with the API's own
 * rules as it is typed, 1–30 line items, a summary with the totals, a confirmation; then the
 * invoice is created and its hosted page and PDF URLs are printed.
 */
export async function createInvoiceInteractively(
  api: ApiTarget,
  currencyFlag?: string,
): Promise<void> {
  // A --currency the API would refuse is refused before the first prompt.
  const flagged = currencyFlag === undefined ? undefined : validateCurrency(currencyFlag);
  if (flagged && !flagged.ok)
    throw new CliError("--currency is not valid", EXIT.invalid, flagged.fields);
  p.intro("New invoice");
  const body: Record<string, unknown> = {
    merchant_email: await ask("Your email (the merchant)", fields.merchant_email, {
      placeholder: "billing@acme.example",
    }),
    merchant_name: await ask("Your business name", fields.merchant_name),
    merchant_address: await ask("Your business address", fields.merchant_address),
    vendor_email: await ask("Vendor's email (who pays)", fields.vendor_email),
    vendor_name: await ask("Vendor's name", fields.vendor_name),
    vendor_address: await ask("Vendor's address (optional)", fields.merchant_address, {
      optional: true,
    }),
  };
  const currency: Currency =
    flagged?.value ??
    answered<Currency>(
      await p.select({
        message: "What are the prices in?",
        options: CURRENCIES.map((code) => ({
          value: code,
          label: code,
          ...(code === "USDC"
            ? {}
            : { hint: "paid in USDC at the rate of Chainlink's feed on Base when paying" }),
        })),
      }),
    );
  if (currency !== "USDC") body.currency = currency;
  const items: Record<string, unknown>[] = [];
  do {
    p.log.step(`Line item ${items.length + 1}`);
    const description = await ask("Description", LineItemSchema.shape.description);
    const quantity = await ask("Quantity", LineItemSchema.shape.quantity, {
      placeholder: "1",
      defaultValue: "1",
      transform: promptQuantity,
    });
    const unitPrice = await ask(`Unit price in ${currency}`, LineItemSchema.shape.unit_price, {
      placeholder: "100.00",
      transform: promptAmount,
      // In a currency a price settles to its cent: the API's rule, as typed.
      problem: (typed) =>
        promptAmountProblem(typed) ?? currencyAmountProblem(currency, promptAmount(typed)),
    });
    items.push({ description, quantity, unit_price: unitPrice });
  } while (
    items.length < 30 &&
    answered(await p.confirm({ message: "Add another line item?", initialValue: false }))
  );
  body.line_items = items;
  const dueDefault = defaultDueDate(utcToday());
  body.due_date = await ask(`Due date (YYYY-MM-DD, Enter for ${dueDefault})`, fields.due_date, {
    placeholder: dueDefault,
    defaultValue: dueDefault,
    transform: (typed) => typed.trim() || dueDefault,
  });
  body.notes = await ask("Notes (optional)", fields.merchant_address, { optional: true });
  body.wallet_type = answered(
    await p.select({
      message: "Where should the money go?",
      options: [
        { value: "managed", label: "A wallet Remit manages for me" },
        { value: "byo", label: "My own wallet address" },
      ],
    }),
  );
  if (body.wallet_type === "byo")
    body.wallet_address = await ask("Your wallet address", fields.wallet_address, {
      placeholder: "0x…",
      transform: promptAddress,
    });
  body.webhook_url = await ask("Webhook URL (optional)", fields.webhook_url, { optional: true });
  body.send_now = answered(
    await p.confirm({ message: "Email the invoice to the vendor now?", initialValue: true }),
  );
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];

  const result = validateInvoice(body);
  if (!result.ok) throw new CliError("the invoice is not valid", EXIT.invalid, result.fields);
  const preview = invoicePreview(result.value);
  p.note(
    [
      ...preview.line_items.map(
        (line) =>
          `${line.description}: ${line.quantity} × ${line.unit_price} = ${line.line_total} ${preview.currency}`,
      ),
      `Total: ${preview.total_amount} ${preview.currency}, due ${preview.request.due_date}`,
      ...(preview.currency === "USDC"
        ? []
        : [`Paid in USDC at the rate of Chainlink's ${preview.currency} feed on Base at payment`]),
      `To: ${preview.request.vendor_name} <${preview.request.vendor_email}>${preview.request.send_now ? " (emailed now)" : " (draft)"}`,
    ].join("\n"),
    "Summary",
  );
  if (!answered(await p.confirm({ message: "Create this invoice?" }))) {
    p.cancel("Not created.");
    throw new CliCancelled();
  }
  const answer = await callApi(api, "/api/invoices", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(result.value),
  });
  const created = answer.body as { invoice_number: string; invoice_url: string; pdf_url: string };
  p.outro(`Created ${created.invoice_number}`);
  process.stdout.write(`${created.invoice_url}\n${created.pdf_url}\n`);
}
