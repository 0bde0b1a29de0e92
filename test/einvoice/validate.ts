/**
 * Test-only harness: checks an EN 16931 e-invoice with the OFFICIAL validation artifacts, offline.
 *
 * - EN 16931 (UBL 2.1 and UN/CEFACT CII): the CEN/TC 434 Schematron as compiled to XSLT by
 *   ConnectingEurope/eInvoicing-EN16931 (ubl/xslt, cii/xslt), unchanged.
 * - Peppol BIS Billing 3.0 (UBL): OpenPEPPOL/peppol-bis-invoice-3 rules/sch/PEPPOL-EN16931-UBL.sch,
 *   compiled to XSLT by SchXslt (that repository publishes no XSLT of its own).
 *
 * Each XSLT is run by SaxonJS (pure JavaScript, XSLT 3.0) from a SEF file that `xslt3` compiled once
 * (test/einvoice/rules/build.mjs); the SEF files are committed gzipped, so no Java and no network.
 * The rules' SVRL report is read back with XPath. See docs/einvoice-validation.md.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import SaxonJS from "saxon-js";

export type Syntax = "ubl" | "cii";

/** One failed assertion (or successful report) of the SVRL output. */
export interface RuleFinding {
  /** The rule's id, e.g. "BR-09", "BR-CO-15", "PEPPOL-EN16931-R001". */
  id: string;
  /** The rule's message. */
  text: string;
  /** XPath of the offending node, as the compiled rules write it. */
  location: string;
  /** The rule's flag as written in the Schematron ("fatal", "warning", …; "" when none). */
  flag: string;
  /** The XPath test that failed. */
  test: string;
}

export interface ValidationResult {
  /** Findings flagged "fatal" (or "error", or with no flag): the document does not conform. */
  fatal: RuleFinding[];
  /** Findings flagged "warning" or "information": the document conforms. */
  warnings: RuleFinding[];
  /** How many rule contexts fired; 0 would mean the rules never looked at the document. */
  firedRules: number;
}

const RULES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "rules");

/** The compiled rule sets, by file under rules/. */
export const RULE_SETS = {
  "en16931-ubl": "en16931/EN16931-UBL-validation.sef.json.gz",
  "en16931-cii": "en16931/EN16931-CII-validation.sef.json.gz",
  "peppol-ubl": "peppol/PEPPOL-EN16931-UBL.sef.json.gz",
} as const;
export type RuleSet = keyof typeof RULE_SETS;

const ROOTS: Record<Syntax, { ns: string; names: string[] }> = {
  ubl: {
    ns: "urn:oasis:names:specification:ubl:schema:xsd:(Invoice|CreditNote)-2",
    names: ["Invoice", "CreditNote"],
  },
  cii: {
    ns: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    names: ["CrossIndustryInvoice"],
  },
};

const SVRL = { svrl: "http://purl.oclc.org/dsdl/svrl" };

const loaded = new Map<RuleSet, Promise<unknown>>();

/** The parsed SEF of a rule set, read and un-gzipped once per process. */
function stylesheet(set: RuleSet): Promise<unknown> {
  let sef = loaded.get(set);
  if (!sef) {
    sef = readFile(path.join(RULES_DIR, RULE_SETS[set])).then((gz) =>
      JSON.parse(gunzipSync(gz).toString("utf8")),
    );
    loaded.set(set, sef);
  }
  return sef;
}

/** Runs one compiled rule set on a document and returns its findings. */
export async function runRules(set: RuleSet, xml: string): Promise<ValidationResult> {
  const stylesheetInternal = await stylesheet(set);
  const output = await SaxonJS.transform(
    { stylesheetInternal, sourceText: xml, destination: "document" },
    "async",
  );
  const svrl = output.principalResult;
  const findings = SaxonJS.XPath.evaluate(
    `array { for $f in //(svrl:failed-assert | svrl:successful-report) return map {
        'id': string($f/@id), 'flag': string($f/@flag), 'location': string($f/@location),
        'test': string($f/@test), 'text': normalize-space(string-join($f/svrl:text, ' ')) } }`,
    svrl,
    { namespaceContext: SVRL },
  ) as RuleFinding[];
  const firedRules = SaxonJS.XPath.evaluate("count(//svrl:fired-rule)", svrl, {
    namespaceContext: SVRL,
  }) as number;
  const result: ValidationResult = { fatal: [], warnings: [], firedRules };
  for (const f of findings) {
    if (f.flag === "warning" || f.flag === "information" || f.flag === "info") {
      result.warnings.push(f);
    } else result.fatal.push(f);
  }
  return result;
}

/** Throws unless the document's root is one the syntax's rules are written for (else they'd pass it unseen). */
function assertRoot(xml: string, syntax: Syntax): void {
  const doc = SaxonJS.XPath.evaluate("parse-xml($xml)", null, { params: { xml } });
  const root = SaxonJS.XPath.evaluate(
    "/*!map{'ns': namespace-uri(), 'name': local-name()}",
    doc,
  ) as {
    ns: string;
    name: string;
  };
  const want = ROOTS[syntax];
  if (!new RegExp(`^${want.ns}$`).test(root.ns) || !want.names.includes(root.name)) {
    throw new Error(`not a ${syntax.toUpperCase()} invoice: root is {${root.ns}}${root.name}`);
  }
}

/** EN 16931 semantic rules (CEN/TC 434 validation artifacts) for UBL 2.1 or UN/CEFACT CII. */
export async function validateEn16931(xml: string, syntax: Syntax): Promise<ValidationResult> {
  assertRoot(xml, syntax);
  return runRules(syntax === "ubl" ? "en16931-ubl" : "en16931-cii", xml);
}

/**
 * Peppol BIS Billing 3.0 rules (PEPPOL-EN16931-UBL) for a UBL Invoice or CreditNote. Peppol
 * conformance also needs the EN 16931 rules: call validateEn16931(xml, "ubl") as well.
 */
export async function validatePeppol(xml: string): Promise<ValidationResult> {
  assertRoot(xml, "ubl");
  return runRules("peppol-ubl", xml);
}
