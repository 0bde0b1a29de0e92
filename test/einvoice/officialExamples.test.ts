/**
 * The e-invoice validation harness (validate.ts), proven on the official example documents: every
 * EN 16931 UBL and CII example and every Peppol BIS 3.0 example passes the official rules with no
 * fatal finding, and a deliberately broken copy fails with the expected rule id. No database, no
 * chain, no network. Run alone: npx vitest run --config test/einvoice/vitest.config.ts
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RULE_SETS, type RuleSet, validateEn16931, validatePeppol } from "./validate.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const examples = (dir: string): string[] =>
  readdirSync(path.join(here, "examples", dir))
    .filter((f) => /\.xml$/i.test(f))
    .sort();
const read = (dir: string, file: string): string =>
  readFileSync(path.join(here, "examples", dir, file), "utf8");

/** Summary of fatal findings, so a failure shows the rule ids and messages. */
const ids = (r: { fatal: { id: string }[] }): string[] => r.fatal.map((f) => f.id);

/** Applies `edit` to the first `<tag …>…</tag>` of xml; throws if it is not there or the edit did nothing. */
function within(xml: string, tag: string, edit: (part: string) => string): string {
  const start = xml.indexOf(`<${tag}>`);
  const endTag = `</${tag}>`;
  const end = xml.indexOf(endTag, start);
  if (start < 0 || end < 0) throw new Error(`no <${tag}> in the example`);
  const part = xml.slice(start, end + endTag.length);
  const edited = edit(part);
  if (edited === part) throw new Error(`the edit changed nothing in <${tag}>`);
  return xml.slice(0, start) + edited + xml.slice(end + endTag.length);
}

describe("the vendored rules", () => {
  it("are compiled from the vendored sources (manifest.json sha256; else run rules/build.mjs)", () => {
    const manifest = JSON.parse(readFileSync(path.join(here, "rules", "manifest.json"), "utf8"));
    for (const [set, sef] of Object.entries(RULE_SETS) as [RuleSet, string][]) {
      const entry = manifest.compiled[set];
      expect(entry?.sef, set).toBe(sef);
      const source = readFileSync(path.join(here, "rules", entry.source));
      expect(createHash("sha256").update(source).digest("hex"), set).toBe(entry.sourceSha256);
    }
  });

  it("refuse a document of the other syntax instead of passing it unseen", async () => {
    const cii = read("en16931/cii", "CII_example1.xml");
    await expect(validateEn16931(cii, "ubl")).rejects.toThrow(/not a UBL invoice/);
    await expect(validatePeppol(cii)).rejects.toThrow(/not a UBL invoice/);
    const ubl = read("en16931/ubl", "ubl-tc434-example1.xml");
    await expect(validateEn16931(ubl, "cii")).rejects.toThrow(/not a CII invoice/);
  });
});

describe("EN 16931 UBL: official examples", () => {
  it.each(examples("en16931/ubl"))("%s has no fatal finding", async (file) => {
    const result = await validateEn16931(read("en16931/ubl", file), "ubl");
    expect(result.firedRules).toBeGreaterThan(0);
    expect(result.fatal).toEqual([]);
  });

  const base = read("en16931/ubl", "ubl-tc434-example1.xml");

  it("a copy without the seller's country fails BR-09", async () => {
    const broken = within(base, "cac:AccountingSupplierParty", (p) =>
      p.replace(/<cac:Country>[\s\S]*?<\/cac:Country>/, ""),
    );
    expect(ids(await validateEn16931(broken, "ubl"))).toContain("BR-09");
  });

  it("a copy with UBL extensions is warned of UBL-CR-001, not failed", async () => {
    const ext = "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2";
    const warned = base.replace(
      /<Invoice [^>]*>/,
      `$&<ext:UBLExtensions xmlns:ext="${ext}"><ext:UBLExtension><ext:ExtensionContent><x/></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>`,
    );
    expect(warned).not.toBe(base);
    const result = await validateEn16931(warned, "ubl");
    expect(result.fatal).toEqual([]);
    expect(result.warnings.map((w) => [w.id, w.flag])).toContainEqual(["UBL-CR-001", "warning"]);
  });

  it("a copy whose total with VAT is off by one fails BR-CO-15", async () => {
    const broken = within(base, "cac:LegalMonetaryTotal", (p) =>
      p.replace(/(<cbc:TaxInclusiveAmount [^>]*>)250\.33</, "$1251.33<"),
    );
    expect(ids(await validateEn16931(broken, "ubl"))).toContain("BR-CO-15");
  });
});

describe("EN 16931 CII: official examples", () => {
  it.each(examples("en16931/cii"))("%s has no fatal finding", async (file) => {
    const result = await validateEn16931(read("en16931/cii", file), "cii");
    expect(result.firedRules).toBeGreaterThan(0);
    expect(result.fatal).toEqual([]);
  });

  const base = read("en16931/cii", "CII_example1.xml");

  it("a copy without the seller's country fails BR-09", async () => {
    const broken = within(base, "ram:SellerTradeParty", (p) =>
      p.replace(/<ram:CountryID>NL<\/ram:CountryID>/, ""),
    );
    expect(ids(await validateEn16931(broken, "cii"))).toContain("BR-09");
  });

  it("a copy whose grand total is off by one fails BR-CO-15", async () => {
    const broken = within(base, "ram:SpecifiedTradeSettlementHeaderMonetarySummation", (p) =>
      p.replace(/<ram:GrandTotalAmount>250\.33</, "<ram:GrandTotalAmount>251.33<"),
    );
    expect(ids(await validateEn16931(broken, "cii"))).toContain("BR-CO-15");
  });
});

describe("Peppol BIS Billing 3.0 (UBL): official examples", () => {
  it.each(examples("peppol"))(
    "%s passes EN 16931 and Peppol with no fatal finding",
    async (file) => {
      const xml = read("peppol", file);
      const en = await validateEn16931(xml, "ubl");
      expect(en.fatal).toEqual([]);
      const peppol = await validatePeppol(xml);
      expect(peppol.firedRules).toBeGreaterThan(0);
      expect(peppol.fatal).toEqual([]);
    },
  );

  it("a copy with neither buyer reference nor order reference fails PEPPOL-EN16931-R003", async () => {
    const base = read("peppol", "base-example.xml");
    const broken = base.replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, "");
    expect(broken).not.toBe(base);
    expect(base).not.toContain("<cac:OrderReference>");
    expect(ids(await validatePeppol(broken))).toContain("PEPPOL-EN16931-R003");
  });
});
