import { exemptionReasonFor, type LineTax } from "../domain/tax.ts";
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
import { PAYMENT_MEANS_CODE, UNIT_CODE } from "./ubl.ts";
import { el, required, serialize, text, type XmlElement } from "./xml.ts";

/**
 * The same document as UN/CEFACT Cross Industry Invoice (D16B), profile EN 16931: what
 * Factur-X / ZUGFeRD embeds in a PDF. Checked by the official CEN rules for CII in the tests.
 * Elements are written in the CII schema's order.
 */

const NAMESPACES = {
  "xmlns:rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  "xmlns:ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  "xmlns:qdt": "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
  "xmlns:udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
};
/** The EN 16931 profile's guideline identifier (Factur-X's "EN 16931" profile). */
export const CII_GUIDELINE_ID = "urn:cen.eu:en16931:2017";

/** A date as CII writes it: format 102, YYYYMMDD. */
const date = (name: string, value: string, type: "udt" | "qdt" = "udt") =>
  el(name, text(`${type}:DateTimeString`, value.replaceAll("-", ""), { format: "102" }));

function tradeTax(
  tax: LineTax,
  figures: { basis: bigint; calculated: bigint } | null,
  reason: string | null,
) {
  const exemption = figures ? exemptionReasonFor(tax.category, reason) : null;
  return el(
    "ram:ApplicableTradeTax",
    figures && text("ram:CalculatedAmount", amount(figures.calculated)),
    text("ram:TypeCode", "VAT"),
    text("ram:ExemptionReason", exemption?.text),
    figures && text("ram:BasisAmount", amount(figures.basis)),
    text("ram:CategoryCode", tax.category),
    text("ram:ExemptionReasonCode", exemption?.code),
    text("ram:RateApplicablePercent", tax.rate?.text),
  );
}

function tradeParty(name: string, who: EInvoiceParty): XmlElement {
  const [lineOne, lineTwo, ...rest] = addressLines(who.address);
  const endpoint = peppolEndpoint(who);
  const own = who.peppolId ? endpoint : null;
  return el(
    name,
    own && text("ram:GlobalID", own.id, { schemeID: own.scheme }),
    text("ram:Name", who.name),
    el(
      "ram:DefinedTradeContact",
      el("ram:EmailURIUniversalCommunication", text("ram:URIID", who.email)),
    ),
    el(
      "ram:PostalTradeAddress",
      text("ram:LineOne", lineOne),
      text("ram:LineTwo", lineTwo),
      text("ram:LineThree", rest.join(", ")),
      text("ram:CountryID", who.country),
    ),
    endpoint &&
      el(
        "ram:URIUniversalCommunication",
        text("ram:URIID", endpoint.id, { schemeID: endpoint.scheme }),
      ),
    who.taxId && el("ram:SpecifiedTaxRegistration", text("ram:ID", who.taxId, { schemeID: "VA" })),
  );
}

/** The document as CII XML. */
export function toCii(document: EInvoiceDocument): string {
  const isInvoice = document.type === "invoice";
  const figures = figuresOf(document);
  const intraCommunity = document.lines.some((line) => line.tax.category === "K");
  const currency = documentCurrency(document.currency);
  const root = el(
    "rsm:CrossIndustryInvoice",
    NAMESPACES,
    el(
      "rsm:ExchangedDocumentContext",
      el("ram:GuidelineSpecifiedDocumentContextParameter", text("ram:ID", CII_GUIDELINE_ID)),
    ),
    el(
      "rsm:ExchangedDocument",
      text("ram:ID", document.number),
      text("ram:TypeCode", isInvoice ? "380" : "381"),
      date("ram:IssueDateTime", document.issueDate),
      document.note && el("ram:IncludedNote", text("ram:Content", document.note)),
    ),
    el(
      "rsm:SupplyChainTradeTransaction",
      ...document.lines.map((line, index) =>
        el(
          "ram:IncludedSupplyChainTradeLineItem",
          el("ram:AssociatedDocumentLineDocument", text("ram:LineID", String(index + 1))),
          el("ram:SpecifiedTradeProduct", text("ram:Name", line.description)),
          el(
            "ram:SpecifiedLineTradeAgreement",
            el("ram:NetPriceProductTradePrice", text("ram:ChargeAmount", price(line.unitPrice))),
          ),
          el(
            "ram:SpecifiedLineTradeDelivery",
            text("ram:BilledQuantity", line.quantity, { unitCode: UNIT_CODE }),
          ),
          el(
            "ram:SpecifiedLineTradeSettlement",
            tradeTax(line.tax, null, null),
            el(
              "ram:SpecifiedTradeSettlementLineMonetarySummation",
              text("ram:LineTotalAmount", amount(line.netAmount)),
            ),
          ),
        ),
      ),
      el(
        "ram:ApplicableHeaderTradeAgreement",
        text("ram:BuyerReference", document.buyerReference),
        tradeParty("ram:SellerTradeParty", document.seller),
        tradeParty("ram:BuyerTradeParty", document.buyer),
      ),
      // Always present (the schema requires it); an intra-community supply says when and where
      // it was delivered (BR-IC-11, BR-IC-12), as the UBL does.
      required(
        el(
          "ram:ApplicableHeaderTradeDelivery",
          intraCommunity &&
            el(
              "ram:ShipToTradeParty",
              el("ram:PostalTradeAddress", text("ram:CountryID", document.buyer.country)),
            ),
          intraCommunity &&
            el(
              "ram:ActualDeliverySupplyChainEvent",
              date("ram:OccurrenceDateTime", document.issueDate),
            ),
        ),
      ),
      el(
        "ram:ApplicableHeaderTradeSettlement",
        isInvoice && text("ram:PaymentReference", document.number),
        text("ram:InvoiceCurrencyCode", currency),
        isInvoice &&
          document.payment &&
          el(
            "ram:SpecifiedTradeSettlementPaymentMeans",
            text("ram:TypeCode", PAYMENT_MEANS_CODE),
            text("ram:Information", `USDC on Base, chain ${document.payment.chainId}`),
            el(
              "ram:PayeePartyCreditorFinancialAccount",
              text("ram:ProprietaryID", document.payment.depositAddress),
            ),
          ),
        ...figures.breakdown.map((row) =>
          tradeTax(
            row,
            { basis: row.taxableAmount, calculated: row.taxAmount },
            document.exemptionReason,
          ),
        ),
        isInvoice &&
          el(
            "ram:SpecifiedTradePaymentTerms",
            document.payment &&
              text("ram:Description", paymentTerms(document.currency, document.payment)),
            document.dueDate && date("ram:DueDateDateTime", document.dueDate),
          ),
        el(
          "ram:SpecifiedTradeSettlementHeaderMonetarySummation",
          text("ram:LineTotalAmount", amount(figures.subtotal)),
          text("ram:TaxBasisTotalAmount", amount(figures.subtotal)),
          text("ram:TaxTotalAmount", amount(figures.tax), { currencyID: currency }),
          text("ram:GrandTotalAmount", amount(figures.total)),
          document.paidAmount !== 0n && text("ram:TotalPrepaidAmount", amount(document.paidAmount)),
          text("ram:DuePayableAmount", amount(figures.payable)),
        ),
        document.precedingInvoice &&
          el(
            "ram:InvoiceReferencedDocument",
            text("ram:IssuerAssignedID", document.precedingInvoice.number),
            date("ram:FormattedIssueDateTime", document.precedingInvoice.issueDate, "qdt"),
          ),
      ),
    ),
  );
  return serialize(root);
}
