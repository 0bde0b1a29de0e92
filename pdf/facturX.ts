import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { embeddedCourier } from "./embeddedCourier.ts";
import { type DocumentInfo, facturXmp } from "./facturXmp.ts";
import {
  appendUpdate,
  nextObjectNumber,
  objectValue,
  readPdf,
  resolve,
  type UpdateObject,
} from "./pdfFile.ts";
import {
  decodeString,
  dictionary,
  dictionaryEntries,
  encodeName,
  encodeString,
  pdfDateToIso,
  referenceNumber,
} from "./pdfSyntax.ts";

/** The embedded invoice's file name, as Factur-X 1.0 requires it. */
export const FACTUR_X_FILE_NAME = "factur-x.xml";
/**
 * How the XML relates to the PDF: `Data`, the PDF shows the invoice and the XML carries its
 * data (Factur-X also allows `Alternative`, German practice, and `Source`).
 */
export const FACTUR_X_RELATIONSHIP = "Data";
/** The Factur-X profile of a full EN 16931 invoice (the XMP's fx:ConformanceLevel). */
export const FACTUR_X_PROFILE = "EN 16931";

// The sRGB profile pdfkit ships for its own PDF/A output: every colour of an invoice is DeviceRGB.
const pdfkitDir = path.dirname(
  createRequire(createRequire(import.meta.url).resolve("pdfmake/package.json")).resolve(
    "pdfkit/package.json",
  ),
);
let srgb: Buffer | undefined;
const srgbProfile = () => {
  srgb ??= readFileSync(path.join(pdfkitDir, "js/data/sRGB_IEC61966_2_1.icc"));
  return srgb;
};

const INFO_KEYS: Record<string, keyof DocumentInfo> = {
  Title: "title",
  Author: "author",
  Subject: "subject",
  Keywords: "keywords",
  Creator: "creator",
  Producer: "producer",
  CreationDate: "created",
  ModDate: "modified",
};

/**
 * A Factur-X invoice (profile EN 16931) made of an invoice's PDF and its CII XML: a PDF/A-3b
 * with the XML embedded as `factur-x.xml`. The PDF's bytes are kept as they are, first in the
 * file; what PDF/A-3 and Factur-X add follows them as an incremental update (ISO 32000-1
 * §7.5.6): the XML as an embedded file, with AFRelationship `Data` (the PDF shows the invoice,
 * the XML carries its data) in the catalog's /AF and /EmbeddedFiles; the XMP metadata (PDF/A-3
 * conformance B, the Factur-X properties and their extension schema, the information
 * dictionary's entries again); an sRGB output intent; the Courier fonts embedded
 * (embeddedCourier). Pure: the same PDF and XML give the same bytes.
 *
 * @example const file = toFacturX(storedPdf, toCii(document)); // application/pdf
 */
export function toFacturX(pdf: Uint8Array, ciiXml: string): Buffer {
  const file = readPdf(pdf);
  const rootNumber = referenceNumber(file.trailer.get("Root"));
  if (rootNumber === undefined) throw new SyntaxError("the PDF's trailer names no catalog");
  const catalog = dictionaryEntries(objectValue(file, rootNumber));

  const infoSource = resolve(file, file.trailer.get("Info"));
  const info: DocumentInfo = {};
  const infoEntries = infoSource ? dictionaryEntries(infoSource) : new Map<string, string>();
  for (const [key, value] of infoEntries) {
    const field = INFO_KEYS[key];
    const text = decodeString(resolve(file, value) ?? "");
    if (field === "created" || field === "modified") info[field] = pdfDateToIso(text);
    else if (field) info[field] = text;
  }
  // The attachment's date: the document's own, so the same inputs give the same file.
  const fileDate = resolve(file, infoEntries.get("ModDate") ?? infoEntries.get("CreationDate"));

  const fonts = embeddedCourier(file, nextObjectNumber(file));
  const [embedded, filespec, profile, intent, metadata] = [0, 1, 2, 3, 4].map(
    (i) => fonts.next + i,
  ) as [number, number, number, number, number];
  const xml = Buffer.from(ciiXml, "utf8");
  const name = encodeString(FACTUR_X_FILE_NAME);
  const objects: UpdateObject[] = [
    ...fonts.objects,
    {
      number: embedded,
      value: new Map([
        ["Type", "/EmbeddedFile"],
        ["Subtype", encodeName("text/xml")],
        [
          "Params",
          dictionary([
            ["Size", String(xml.byteLength)],
            ...(fileDate ? ([["ModDate", fileDate]] as [string, string][]) : []),
          ]),
        ],
      ]),
      stream: { bytes: xml, compress: true },
    },
    {
      number: filespec,
      value: new Map([
        ["Type", "/Filespec"],
        ["F", name],
        ["UF", name],
        ["Desc", encodeString("Factur-X invoice (EN 16931)")],
        ["AFRelationship", encodeName(FACTUR_X_RELATIONSHIP)],
        [
          "EF",
          dictionary([
            ["F", `${embedded} 0 R`],
            ["UF", `${embedded} 0 R`],
          ]),
        ],
      ]),
    },
    {
      number: profile,
      value: new Map([["N", "3"]]),
      stream: { bytes: srgbProfile(), compress: true },
    },
    {
      number: intent,
      value: new Map([
        ["Type", "/OutputIntent"],
        ["S", "/GTS_PDFA1"],
        ["OutputConditionIdentifier", encodeString("sRGB IEC61966-2.1")],
        ["Info", encodeString("sRGB IEC61966-2.1")],
        ["DestOutputProfile", `${profile} 0 R`],
      ]),
    },
    {
      number: metadata,
      value: new Map([
        ["Type", "/Metadata"],
        ["Subtype", "/XML"],
      ]),
      // Uncompressed, so that a tool that does not parse PDF can still find it.
      stream: {
        bytes: Buffer.from(
          facturXmp(info, {
            documentFileName: FACTUR_X_FILE_NAME,
            conformanceLevel: FACTUR_X_PROFILE,
          }),
          "utf8",
        ),
        compress: false,
      },
    },
  ];

  const embeddedFiles = dictionary([["Names", `[${name} ${filespec} 0 R]`]]);
  const namesNumber = referenceNumber(catalog.get("Names"));
  const names = dictionaryEntries(resolve(file, catalog.get("Names")) ?? "<< >>");
  if (names.has("EmbeddedFiles"))
    throw new Error("the PDF already has embedded files: a Factur-X PDF embeds the invoice alone");
  names.set("EmbeddedFiles", embeddedFiles);
  if (namesNumber === undefined) catalog.set("Names", dictionary(names));
  else objects.push({ number: namesNumber, value: names });

  catalog.set("Version", "/1.7");
  catalog.set("Metadata", `${metadata} 0 R`);
  catalog.set("OutputIntents", `[${intent} 0 R]`);
  catalog.set("AF", `[${filespec} 0 R]`);
  objects.push({ number: rootNumber, value: catalog });
  return appendUpdate(file, objects);
}
