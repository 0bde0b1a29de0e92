import { z } from "@hono/zod-openapi";
import { getAddress, isAddress } from "viem";
import { isCountryCode } from "../domain/countries.ts";
import { CURRENCIES, isCurrency } from "../domain/currencies.ts";
import {
  METADATA_KEY_PATTERN,
  METADATA_MAX_KEYS,
  METADATA_MAX_STRING,
  type MetadataValue,
} from "../domain/metadata.ts";
import { USDC_DECIMAL_PATTERN } from "../domain/money.ts";
import { WALLET_TYPES } from "../domain/statuses.ts";
import { TAX_CATEGORIES, TAX_RATE_PATTERN } from "../domain/tax.ts";
import { EXAMPLE_WALLET_ADDRESS } from "./invoices/examples.ts";

/**
 * The field primitives every public schema is built of (invoices, links, refunds, payouts,
 * schedules): each rule carries a stable `code` (in `params`) that a 400 body reports per field.
 * Nothing here knows any one resource, so any schema module may import it and none imports back.
 */

/** `x402_url`, on invoices and payment links alike. */
export const X402_URL_DESCRIPTION =
  'Its x402 resource: software (an accounts-payable system, an agent) GETs it to be told in x402 version 2 what is due and pays there, gaslessly (docs/api.md, "Paying an invoice from software").';

export const rule = (code: string, message: string) => ({ message, params: { code } });

/** A real calendar date written as YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const calendarDate = z
  .string(rule("invalid_date", "must be a date written YYYY-MM-DD"))
  // One message per problem, and neither aborting: zod would then skip the rules across fields.
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value),
    rule("invalid_date", "must be a date written YYYY-MM-DD"),
  )
  .refine(
    (value) => !/^\d{4}-\d{2}-\d{2}$/.test(value) || isCalendarDate(value),
    rule("invalid_date", "is not a real calendar date"),
  )
  .openapi({ format: "date", example: "2026-12-31" });

export const emailAddress = z
  .email(rule("invalid_email", "must be a valid email address"))
  .max(254);
/** C0 control characters other than tab, line feed and carriage return, and DEL: Postgres
 * refuses NUL in text, and none of them belongs on an invoice. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const nonEmptyText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, rule("required", "must not be empty"))
    .max(max, rule("too_long", `must be at most ${max} characters`))
    .refine(
      (value) => !CONTROL_CHARACTERS.test(value),
      rule("invalid_characters", "must not contain control characters"),
    );

/** A USDC amount as a quoted decimal string with 1–6 decimals: "100.00", "0.5", "1.123456". */
export const usdcAmount = z
  .custom<string>(
    (value) => typeof value === "string" && USDC_DECIMAL_PATTERN.test(value),
    // z.custom aborts by default, which would make zod skip the rules across fields.
    {
      ...rule(
        "invalid_decimal",
        'must be a quoted decimal string with 1 to 6 decimals, such as "100.00"',
      ),
      abort: false,
    },
  )
  .openapi({
    type: "string",
    pattern: USDC_DECIMAL_PATTERN.source,
    example: "100.00",
    description: 'A USDC amount: a quoted decimal string with 1 to 6 decimals, such as `"100.00"`.',
  });

/** An EIP-55 checksummed address; a valid but unchecksummed one is refused with the fix. */
const checksummed = z.string().superRefine((value, ctx) => {
  if (!isAddress(value, { strict: false })) {
    ctx.addIssue({
      code: "custom",
      ...rule("invalid_address", "must be a 0x-prefixed 40-hex-digit EVM address"),
    });
  } else if (value !== getAddress(value)) {
    // viem's strict check lets an all-lowercase address through; a checksum is required here.
    ctx.addIssue({
      code: "custom",
      ...rule("not_checksummed", `must be EIP-55 checksummed: ${getAddress(value)}`),
    });
  }
});
export const checksummedAddress = checksummed.openapi({
  pattern: "^0x[0-9a-fA-F]{40}$",
  example: EXAMPLE_WALLET_ADDRESS,
  description:
    'The merchant\'s own wallet, EIP-55 checksummed: required when `wallet_type` is `"byo"`, refused when `"managed"`.',
});

/** byo needs a wallet_address; managed must not have one. Shared by invoices and links. */
export function walletRules(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (body.wallet_type === "byo" && body.wallet_address === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["wallet_address"],
      ...rule("required", 'is required when wallet_type is "byo"'),
    });
  }
  if (body.wallet_type === "managed" && body.wallet_address !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["wallet_address"],
      ...rule(
        "not_allowed",
        'must be omitted when wallet_type is "managed" (the merchant\'s managed wallet receives the funds)',
      ),
    });
  }
}

/**
 * What an invoice's (or link's) amounts are in: `USDC`, the spec's, or a currency paid in USDC at
 * the chain's rate (docs/currencies.md). A code Remit has no price feed for is refused by name.
 */
export const currencyField = z
  .enum(
    CURRENCIES,
    rule(
      "invalid_enum",
      'must be "USDC", "USD", "EUR" or "GBP": USDC, or a currency with a Chainlink price feed on Base',
    ),
  )
  .openapi({
    description:
      "What the amounts are in: `USDC` (the default, the spec's behaviour), or `USD`, `EUR`, `GBP`, paid in USDC at the rate of Chainlink's feed on Base at payment (docs/currencies.md). In a currency, unit prices have at most 2 decimals.",
  });

/**
 * In a currency, an amount settles to its cent: an amount with more than 2 decimals is USDC's
 * alone. Why `value` cannot be an amount in `currency`, or undefined when it can (an unknown
 * currency is the currency field's own error, not its amounts').
 *
 * @example currencyAmountProblem("EUR", "12.505") // "must have at most 2 decimals in EUR"
 */
export function currencyAmountProblem(currency: unknown, value: unknown): string | undefined {
  if (typeof currency !== "string" || !isCurrency(currency) || currency === "USDC") return;
  if (typeof value === "string" && /\.\d{3,}$/.test(value))
    return `must have at most 2 decimals in ${currency}`;
}

/**
 * currencyAmountProblem on each of the body's amounts (`amounts`: their paths and values), as
 * field errors.
 */
export function currencyRules(
  body: Record<string, unknown>,
  amounts: readonly { path: (string | number)[]; value: unknown }[],
  ctx: z.RefinementCtx,
): void {
  for (const { path, value } of amounts) {
    const problem = currencyAmountProblem(body.currency, value);
    if (problem) ctx.addIssue({ code: "custom", path, ...rule("too_many_decimals", problem) });
  }
}

export const walletType = z
  .enum(WALLET_TYPES, rule("invalid_enum", 'must be "managed" or "byo"'))
  .openapi({
    description:
      "Where the funds go once paid: `managed`, a wallet Remit manages for the merchant; `byo`, the merchant's own `wallet_address`.",
  });
export const webhookUrl = z
  .url({ protocol: /^https?$/, ...rule("invalid_url", "must be an http(s) URL") })
  .max(2000)
  .openapi({
    example: "https://acme.example/hooks/remit",
    description:
      "Receives the signed payment events; the signing secret is returned only in the 201, as `webhook_secret`. Must be https and public unless the server sets `ALLOW_PRIVATE_WEBHOOKS=true`.",
  });

/**
 * `metadata` (domain/metadata.ts), on payment links and invoices alike: a small flat object
 * echoed back in the API's bodies and the webhooks (an order id, say).
 */
const metadataValue = z
  .custom<MetadataValue>(
    (value) =>
      value === null ||
      typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value)) ||
      (typeof value === "string" &&
        value.length <= METADATA_MAX_STRING &&
        !CONTROL_CHARACTERS.test(value)),
    {
      ...rule(
        "invalid_metadata_value",
        `values are strings (at most ${METADATA_MAX_STRING} characters), numbers, booleans or null`,
      ),
      abort: false,
    },
  )
  // A custom schema tells the OpenAPI generator nothing: describe it (OpenAPI 3.1 type list).
  .openapi({ type: ["string", "number", "boolean", "null"], maxLength: METADATA_MAX_STRING });
export const metadataSchema = z
  .record(
    z.string().regex(METADATA_KEY_PATTERN, "keys are 1–40 letters, digits, _ . -"),
    metadataValue,
  )
  .refine(
    (value) => Object.keys(value).length <= METADATA_MAX_KEYS,
    rule("too_many", `must have at most ${METADATA_MAX_KEYS} keys`),
  );
/** `metadata` as the API answers it: what was stored, `{}` when none was given. */
export const storedMetadataSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);

/** A tax rate in percent, as a decimal string (domain/tax.ts TAX_RATE_PATTERN). */
export const taxRate = z
  .string(rule("invalid_tax_rate", 'must be a percent as a decimal string, such as "19" or "7.5"'))
  .regex(
    TAX_RATE_PATTERN,
    rule(
      "invalid_tax_rate",
      'must be a percent from 0 to 100 as a decimal string, such as "19" or "7.5"',
    ),
  )
  .openapi({ example: "19" });

/** An EN 16931 VAT category code (domain/tax.ts). */
export const taxCategory = z
  .enum(TAX_CATEGORIES, rule("invalid_tax_category", `must be one of ${TAX_CATEGORIES.join(", ")}`))
  .openapi({
    description:
      "The VAT category (EN 16931): `S` standard rate, `Z` zero-rated, `E` exempt, `AE` reverse charge, `K` intra-community supply, `G` export outside the EU, `O` outside the scope of tax. Defaults to `S` when `tax_rate` is above 0.",
  });

/** An ISO 3166-1 alpha-2 country code, upper case. */
export const countryCode = z
  .string(rule("invalid_country", "must be an ISO 3166-1 alpha-2 country code, such as DE"))
  .refine(
    isCountryCode,
    rule("invalid_country", "must be an ISO 3166-1 alpha-2 country code, such as DE"),
  )
  .openapi({ example: "DE" });

/**
 * A VAT (or other tax) identifier, as registered: letters and digits, spaces and dots removed
 * (`DE 123.456.789` is `DE123456789`).
 */
export const taxId = z
  .string(rule("invalid_tax_id", "must be a tax identifier such as DE123456789"))
  .transform((value) => value.replace(/[\s.]/g, "").toUpperCase())
  .pipe(
    z
      .string()
      .regex(
        /^[A-Z0-9][A-Z0-9+*/-]{3,29}$/,
        rule(
          "invalid_tax_id",
          "must be a tax identifier such as DE123456789 (4 to 30 letters and digits)",
        ),
      ),
  )
  .openapi({ example: "DE123456789", type: "string" });
