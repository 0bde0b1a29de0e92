/**
 * Every e-invoice Remit writes, for every tax case of issue 44, passes the official rules: the
 * CEN EN 16931 rules for UBL (and, for the CII writer, for CII) and the Peppol BIS Billing 3.0
 * rules, with no fatal finding. No database, no chain: the writers are pure. Run alone:
 * npx vitest run --config test/einvoice/vitest.config.ts
 */
import { describe, expect, test } from "vitest";
import { toCii } from "../../einvoice/cii.ts";
import {
  amount,
  documentCurrency,
  figuresOf,
  missingForEn16931,
  missingForPeppol,
} from "../../einvoice/document.ts";
import { toUbl } from "../../einvoice/ubl.ts";
import { DOCUMENTS } from "./documents.ts";
import { validateEn16931, validatePeppol } from "./validate.ts";

const findings = (result: { fatal: { id: string; text: string }[] }) =>
  result.fatal.map((finding) => `${finding.id}: ${finding.text}`);

describe("UBL: every case passes EN 16931 and Peppol BIS Billing 3.0", () => {
  test.each(Object.keys(DOCUMENTS))("%s", async (name) => {
    const document = DOCUMENTS[name];
    if (!document) throw new Error(name);
    expect(missingForEn16931(document)).toEqual([]);
    expect(missingForPeppol(document)).toEqual([]);
    const xml = toUbl(document);
    const en16931 = await validateEn16931(xml, "ubl");
    expect(en16931.firedRules).toBeGreaterThan(20);
    expect(findings(en16931)).toEqual([]);
    expect(findings(await validatePeppol(xml))).toEqual([]);

    // The XML's totals are the tax rule's (domain/tax.ts), to the cent, in its currency.
    const figures = figuresOf(document);
    const currency = documentCurrency(document.currency);
    expect(xml).toContain(`<cbc:DocumentCurrencyCode>${currency}<`);
    expect(xml).toContain(
      `<cbc:TaxInclusiveAmount currencyID="${currency}">${amount(figures.total)}<`,
    );
    expect(xml).toContain(
      `<cbc:PayableAmount currencyID="${currency}">${amount(figures.payable)}<`,
    );
  });
});

describe("CII: every case passes EN 16931", () => {
  test.each(Object.keys(DOCUMENTS))("%s", async (name) => {
    const document = DOCUMENTS[name];
    if (!document) throw new Error(name);
    const xml = toCii(document);
    const en16931 = await validateEn16931(xml, "cii");
    expect(en16931.firedRules).toBeGreaterThan(20);
    expect(findings(en16931)).toEqual([]);
    const figures = figuresOf(document);
    expect(xml).toContain(`<ram:InvoiceCurrencyCode>${documentCurrency(document.currency)}<`);
    expect(xml).toContain(`<ram:GrandTotalAmount>${amount(figures.total)}<`);
    expect(xml).toContain(`<ram:DuePayableAmount>${amount(figures.payable)}<`);
  });
});

describe("the currency of the document", () => {
  const eur = DOCUMENTS["priced in EUR"];
  const usdc = DOCUMENTS["mixed rates"];
  if (!eur || !usdc) throw new Error("priced in EUR, mixed rates");

  test("an invoice priced in EUR is written in EUR, every amount, and is paid in USDC at the rate", () => {
    for (const xml of [toUbl(eur), toCii(eur)]) {
      expect(xml).not.toContain('currencyID="USD"');
      expect(xml).not.toContain("1 USDC settles 1 USD");
      expect(xml).toContain(
        "at the rate at payment of Chainlink's EUR / USD and USDC / USD price feeds on Base",
      );
    }
    const ubl = toUbl(eur);
    // Every amount element of the UBL names EUR.
    expect(ubl.match(/currencyID="EUR"/g)?.length).toBe(ubl.match(/currencyID=/g)?.length);
    expect(ubl).toContain('<cbc:TaxInclusiveAmount currencyID="EUR">239.89<');
  });

  test("an invoice priced in USDC is written in USD, 1 USDC settling 1 USD", () => {
    for (const xml of [toUbl(usdc), toCii(usdc)]) {
      expect(xml).not.toContain('currencyID="EUR"');
      expect(xml).toContain("1 USDC settles 1 USD.");
    }
    expect(toUbl(usdc)).toContain("<cbc:DocumentCurrencyCode>USD<");
  });
});

describe("the rules bite on a document of ours", () => {
  test("USDC, no ISO 4217 code, is refused as a document currency: why a USDC invoice is in USD", async () => {
    const document = DOCUMENTS["priced in EUR"];
    if (!document) throw new Error("priced in EUR");
    const ubl = toUbl(document).replaceAll('"EUR"', '"USDC"').replace(">EUR<", ">USDC<");
    expect((await validateEn16931(ubl, "ubl")).fatal.map((f) => f.id)).toContain("BR-CL-04");
  });

  test("a tax total that does not match its breakdown fails BR-CO-14, in both syntaxes", async () => {
    const document = DOCUMENTS["mixed rates"];
    if (!document) throw new Error("mixed rates");
    const ubl = toUbl(document).replace(
      '<cbc:TaxAmount currencyID="USD">30.12</cbc:TaxAmount>',
      '<cbc:TaxAmount currencyID="USD">30.13</cbc:TaxAmount>',
    );
    expect((await validateEn16931(ubl, "ubl")).fatal.map((f) => f.id)).toContain("BR-CO-14");
    const cii = toCii(document).replace(
      '<ram:TaxTotalAmount currencyID="USD">30.12</ram:TaxTotalAmount>',
      '<ram:TaxTotalAmount currencyID="USD">30.13</ram:TaxTotalAmount>',
    );
    expect((await validateEn16931(cii, "cii")).fatal.map((f) => f.id)).toContain("BR-CO-14");
  });
});

describe("the writers refuse what would not be a valid document", () => {
  test("an amount that is not whole cents throws instead of writing it", () => {
    expect(() => amount(1n)).toThrow(/whole cents/);
  });

  test("an invoice missing what EN 16931 requires names the fields to add", () => {
    expect(
      missingForEn16931({
        seller: { country: null, taxId: null },
        buyer: { country: "FR", taxId: null },
        lines: [{ tax: { category: "AE", rate: null } }, { tax: null }],
        exemptionReason: null,
      }).map((missing) => missing.field),
    ).toEqual([
      "merchant_country",
      "line_items[1].tax_category",
      "merchant_tax_id",
      "vendor_tax_id",
    ]);
    expect(
      missingForEn16931({
        seller: { country: "DE", taxId: "DE123456789" },
        buyer: { country: "FR", taxId: null },
        lines: [{ tax: { category: "E", rate: null } }],
        exemptionReason: null,
      }).map((missing) => missing.field),
    ).toEqual(["tax_exemption_reason"]);
  });
});
