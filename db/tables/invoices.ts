import type { ColumnType, Generated } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { Metadata } from "../../domain/metadata.ts";
import type { StoredInvoiceStatus, WalletType } from "../../domain/statuses.ts";
import type { TaxCategory } from "../../domain/tax.ts";

/**
 * The columns of one priced line, an invoice's line item or a credit note's line alike: both
 * tables are written from one mapping (db/queries/lineColumns.ts) and read by one PDF layout.
 */
type PricedLineColumns = {
  position: number;
  description: string;
  // numeric arrives as a string: the quantity exactly as it was sent.
  quantity: ColumnType<string, string, never>;
  unit_price: bigint;
  line_total: bigint;
  /** The line's VAT category and rate (migration 0039); null on an invoice without tax. */
  tax_category: ColumnType<TaxCategory | null, TaxCategory | null | undefined, never>;
  tax_rate: ColumnType<string | null, string | null | undefined, never>;
};

/** Invoices, their line items, PDFs and search documents: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface InvoiceTables {
  "app.invoices": {
    id: Generated<string>;
    merchant_id: string;
    invoice_number: string;
    slug: string;
    merchant_email: string;
    merchant_name_snapshot: string;
    merchant_address_snapshot: string;
    vendor_email: string;
    vendor_name: string;
    vendor_address: string | null;
    // `date` columns travel as YYYY-MM-DD strings (see the type parser in db/database.ts).
    issue_date: string;
    due_date: string;
    notes: string | null;
    wallet_type: WalletType;
    wallet_address: string;
    deposit_address: string;
    total_amount: bigint;
    /** What its amounts are in (migration 0041): `USDC`, or a currency paid at a feed's rate. */
    currency: Generated<Currency>;
    webhook_url: string | null;
    webhook_secret: string | null;
    status: StoredInvoiceStatus;
    sent_at: Date | null;
    created_at: ColumnType<Date, Date | undefined, never>;
    /** When the invoice was voided (migration 0023); null unless `void`. */
    voided_at: Generated<Date | null>;
    /** The merchant's underpayment tolerance when the invoice was created (set by a trigger). */
    underpayment_tolerance: ColumnType<bigint, never, never>;
    /** The schedule that issued it, and for which period (its date), migration 0033. */
    schedule_id: Generated<string | null>;
    schedule_period: Generated<string | null>;
    /** The integrator's own keys (migration 0038), as links have them; `{}` when none. */
    metadata: ColumnType<Metadata, string | undefined, never>;
    /** The parties' VAT identifiers and countries, and the exemption's reason (migration 0039). */
    merchant_tax_id: ColumnType<string | null, string | null | undefined, never>;
    vendor_tax_id: ColumnType<string | null, string | null | undefined, never>;
    merchant_country: ColumnType<string | null, string | null | undefined, never>;
    vendor_country: ColumnType<string | null, string | null | undefined, never>;
    tax_exemption_reason: ColumnType<string | null, string | null | undefined, never>;
    /** The sum of its credit notes' totals (migration 0040), kept by their insert trigger. */
    credited_amount: ColumnType<bigint, never, never>;
  };
  "app.invoice_line_items": PricedLineColumns & { invoice_id: string };
  /** What `q` searches in an invoice (migration 0020): written by triggers, never by code. */
  "app.invoice_search": {
    invoice_id: string;
    merchant_id: string;
    /** The invoice's (migration 0048): a search's matches sort without reading the invoices. */
    created_at: Date;
    document: string;
  };
  "app.invoice_pdfs": {
    invoice_id: string;
    pdf: Buffer;
    sha256: string;
  };
  /** Credit notes (migration 0040): documents that lower what their invoice asks for. */
  "app.credit_notes": {
    id: string;
    merchant_id: string;
    invoice_id: string;
    credit_note_number: string;
    reason: string;
    credits_in_full: boolean;
    issue_date: string;
    subtotal_amount: bigint;
    tax_amount: bigint;
    total_amount: bigint;
    created_at: Date;
  };
  "app.credit_note_lines": PricedLineColumns & { credit_note_id: string };
  "app.credit_note_pdfs": {
    credit_note_id: string;
    pdf: Buffer;
    sha256: string;
  };
}
