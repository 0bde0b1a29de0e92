import type { ColumnType, Generated } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { Metadata } from "../../domain/metadata.ts";
import type { LinkStatus, WalletType } from "../../domain/statuses.ts";

/** Payment links: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface LinkTables {
  "app.payment_links": {
    id: string;
    slug: string;
    merchant_id: string;
    merchant_email: string;
    amount: bigint;
    /** What its amount is in (migration 0041): `USDC`, or a currency paid at a feed's rate. */
    currency: Generated<Currency>;
    description: string;
    wallet_type: WalletType;
    wallet_address: string;
    deposit_address: string;
    webhook_url: string | null;
    webhook_secret: string | null;
    metadata: ColumnType<Metadata, string, never>;
    redirect_url: string | null;
    /** Shown on the checkout; null when the merchant's name is not known. */
    merchant_name: string | null;
    status: Generated<LinkStatus>;
    created_at: ColumnType<Date, Date | undefined, never>;
  };
}
