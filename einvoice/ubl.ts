import { exemptionReasonFor, type LineTax, type TaxBreakdownRow } from "../domain/tax.ts";
import {
  addressLines,
  amount,
  documentCurrency,
  type EInvoiceDocument,
  type EInvoiceParty,
  figuresOf,
  paymentTerms,
  price,
} from "./document.ts";
import { peppolEndpoint } from "./peppolEndpoint.ts";
import { el, serialize, text, type XmlElement } from "./xml.ts";

/**
 * A UBL 2.1 Invoice (a credit note: CreditNote) conforming to EN 16931 and Peppol BIS Billing
 * 3.0: the rules are the official ones, run on every document the tests produce
 * (test/einvoice/remitDocuments.test.ts). Elements are written in the UBL schema's order.
 */

const NAMESPACES = {
  invoice: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  credit_note: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
};
export const PEPPOL_CUSTOMIZATION_ID =
  "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
export const PEPPOL_PROFILE_ID = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";
/** UNTDID 1001: a commercial invoice, a credit note. */
const TYPE_CODE = { invoice: "380", credit_note: "381" } as const;
/** UN/ECE Recommendation 20: "one" (a unit), the unit of every line. */
export const UNIT_CODE = "C62";
/** UNTDID 4461 "mutually defined": a USDC transfer on Base has no code of its own. */
export const PAYMENT_MEANS_CODE = "ZZZ";

/** An amount element in the document's currency. */
const moneyIn = (currency: string) => (name: string, units: bigint) =>
  el(name, { currencyID: currency }, amount(units));
const vat = () => el("cac:TaxScheme", text("cbc:ID", "VAT"));

/** A category as a line or a breakdown row states it (ID, Percent, exemption reason, scheme). */
function taxCategory(name: string, tax: LineTax, reason: string | null, withReason: boolean) {
  const exemption = withReason ? exemptionReasonFor(tax.category, reason) : null;
  return el(
    name,
    text("cbc:ID", tax.category),
    text("cbc:Percent", tax.rate?.text),
    text("cbc:TaxExemptionReasonCode", exemption?.code),
    text("cbc:TaxExemptionReason", exemption?.text),
    vat(),
  );
}

function party(name: string, who: EInvoiceParty): XmlElement {
  const [street, additional, ...rest] = addressLines(who.address);
  const endpoint = peppolEndpoint(who);
  return el(
    name,
    el(
      "cac:Party",
      endpoint && text("cbc:EndpointID", endpoint.id, { schemeID: endpoint.scheme }),
      // The seller's identifier (BT-29), where its Peppol identifier is its own (not its VAT one).
      who.peppolId &&
        endpoint &&
        el("cac:PartyIdentification", text("cbc:ID", endpoint.id, { schemeID: endpoint.scheme })),
      el(
        "cac:PostalAddress",
        text("cbc:StreetName", street),
        text("cbc:AdditionalStreetName", additional),
        rest.length > 0 && el("cac:AddressLine", text("cbc:Line", rest.join(", "))),
        el("cac:Country", text("cbc:IdentificationCode", who.country)),
      ),
      who.taxId && el("cac:PartyTaxScheme", text("cbc:CompanyID", who.taxId), vat()),
      el("cac:PartyLegalEntity", text("cbc:RegistrationName", who.name)),
      el("cac:Contact", text("cbc:ElectronicMail", who.email)),
    ),
  );
}

function breakdownRow(
  row: TaxBreakdownRow,
  reason: string | null,
  money: ReturnType<typeof moneyIn>,
): XmlElement {
  return el(
    "cac:TaxSubtotal",
    money("cbc:TaxableAmount", row.taxableAmount),
    money("cbc:TaxAmount", row.taxAmount),
    taxCategory("cac:TaxCategory", row, reason, true),
  );
}

/** The document as UBL 2.1 XML. */
export function toUbl(document: EInvoiceDocument): string {
  const isInvoice = document.type === "invoice";
  const figures = figuresOf(document);
  const intraCommunity = document.lines.some((line) => line.tax.category === "K");
  const currency = documentCurrency(document.currency);
  const money = moneyIn(currency);
  const root = el(
    isInvoice ? "Invoice" : "CreditNote",
    {
      xmlns: NAMESPACES[document.type],
      "xmlns:cac": NAMESPACES.cac,
      "xmlns:cbc": NAMESPACES.cbc,
    },
    text("cbc:CustomizationID", PEPPOL_CUSTOMIZATION_ID),
    text("cbc:ProfileID", PEPPOL_PROFILE_ID),
    text("cbc:ID", document.number),
    text("cbc:IssueDate", document.issueDate),
    isInvoice && text("cbc:DueDate", document.dueDate),
    text(isInvoice ? "cbc:InvoiceTypeCode" : "cbc:CreditNoteTypeCode", TYPE_CODE[document.type]),
    text("cbc:Note", document.note),
    text("cbc:DocumentCurrencyCode", currency),
    text("cbc:BuyerReference", document.buyerReference),
    document.precedingInvoice &&
      el(
        "cac:BillingReference",
        el(
          "cac:InvoiceDocumentReference",
          text("cbc:ID", document.precedingInvoice.number),
          text("cbc:IssueDate", document.precedingInvoice.issueDate),
        ),
      ),
    party("cac:AccountingSupplierParty", document.seller),
    party("cac:AccountingCustomerParty", document.buyer),
    // An intra-community supply states when and where it was delivered (BR-IC-11, BR-IC-12):
    // on the document's issue date, to the buyer's country (docs/einvoices.md).
    intraCommunity &&
      el(
        "cac:Delivery",
        text("cbc:ActualDeliveryDate", document.issueDate),
        el(
          "cac:DeliveryLocation",
          el(
            "cac:Address",
            el("cac:Country", text("cbc:IdentificationCode", document.buyer.country)),
          ),
        ),
      ),
    isInvoice &&
      document.payment &&
      el(
        "cac:PaymentMeans",
        text("cbc:PaymentMeansCode", PAYMENT_MEANS_CODE, { name: "USDC on Base" }),
        text("cbc:PaymentID", document.number),
        el(
          "cac:PayeeFinancialAccount",
          text("cbc:ID", document.payment.depositAddress),
          text(
            "cbc:Name",
            `USDC (${document.payment.token}) on Base, chain ${document.payment.chainId}`,
          ),
        ),
      ),
    isInvoice &&
      document.payment &&
      el("cac:PaymentTerms", text("cbc:Note", paymentTerms(document.currency, document.payment))),
    el(
      "cac:TaxTotal",
      money("cbc:TaxAmount", figures.tax),
      ...figures.breakdown.map((row) => breakdownRow(row, document.exemptionReason, money)),
    ),
    el(
      "cac:LegalMonetaryTotal",
      money("cbc:LineExtensionAmount", figures.subtotal),
      money("cbc:TaxExclusiveAmount", figures.subtotal),
      money("cbc:TaxInclusiveAmount", figures.total),
      document.paidAmount !== 0n && money("cbc:PrepaidAmount", document.paidAmount),
      money("cbc:PayableAmount", figures.payable),
    ),
    ...document.lines.map((line, index) =>
      el(
        isInvoice ? "cac:InvoiceLine" : "cac:CreditNoteLine",
        text("cbc:ID", String(index + 1)),
        text(isInvoice ? "cbc:InvoicedQuantity" : "cbc:CreditedQuantity", line.quantity, {
          unitCode: UNIT_CODE,
        }),
        money("cbc:LineExtensionAmount", line.netAmount),
        el(
          "cac:Item",
          text("cbc:Name", line.description),
          taxCategory("cac:ClassifiedTaxCategory", line.tax, null, false),
        ),
        el("cac:Price", el("cbc:PriceAmount", { currencyID: currency }, price(line.unitPrice))),
      ),
    ),
  );
  return serialize(root);
}
