import type { ColumnType } from "kysely";
import type { FiatCurrency } from "../../domain/currencies.ts";

/** A numeric column: written as a bigint's decimal string, read as the string Postgres sends. */
type Numeric = ColumnType<string, string, never>;

/** Quotes and payment conversions of currency-priced invoices and links (migration 0041). Amounts are base units of 6 decimals. */
export interface RateTables {
  "app.rate_quotes": {
    id: string;
    deposit_address: string;
    currency: FiatCurrency;
    amount_due: bigint;
    amount_due_usdc: bigint;
    rate_numerator: Numeric;
    rate_denominator: Numeric;
    block_number: bigint;
    quoted_at: Date;
    expires_at: Date;
  };
  "app.payment_conversions": {
    deposit_address: string;
    /** The indexer's id of the transfer: `<tx hash>-<log index>`. */
    transfer_id: string;
    block_number: bigint;
    currency: FiatCurrency;
    rate_block_number: bigint;
    rate_numerator: Numeric;
    rate_denominator: Numeric;
    rounds: ColumnType<Record<string, unknown>, string, never>;
    created_at: ColumnType<Date, never, never>;
  };
}
