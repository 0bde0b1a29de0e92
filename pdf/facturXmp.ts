/**
 * The XMP metadata of a Factur-X PDF (Factur-X 1.0 §6.2.2, ISO 19005-3 §6.6): PDF/A-3
 * conformance B, the document information dictionary's entries repeated as PDF/A requires
 * (§6.6.2.3.1: each entry has its XMP equivalent, with the same value), the Factur-X properties
 * naming the embedded file and its profile, and the extension schema that declares them (a
 * PDF/A file may use only XMP properties that are predefined or declared in the file).
 */

/** What the document information dictionary says, as text (dates in XMP's ISO 8601 form). */
export type DocumentInfo = {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  created?: string;
  modified?: string;
};

/** The Factur-X properties: which file is the invoice, its profile and the schema's version. */
export type FacturXProperties = {
  documentFileName: string;
  conformanceLevel: string;
};

export const FACTUR_X_NAMESPACE = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";

const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const element = (name: string, value: string | undefined, wrap?: "Alt" | "Seq") => {
  if (value === undefined) return "";
  if (!wrap) return `<${name}>${escapeXml(value)}</${name}>`;
  const lang = wrap === "Alt" ? ' xml:lang="x-default"' : "";
  return `<${name}><rdf:${wrap}><rdf:li${lang}>${escapeXml(value)}</rdf:li></rdf:${wrap}></${name}>`;
};

const property = (name: string, description: string) =>
  `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;

const description = (namespaces: string, body: string) =>
  `<rdf:Description rdf:about="" ${namespaces}>${body}</rdf:Description>`;

/** The XMP packet, UTF-8. */
export function facturXmp(info: DocumentInfo, facturX: FacturXProperties): string {
  return [
    // The packet header names no encoding (PDF/A: §6.6.2.2), the byte-order mark says UTF-8.
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    description(
      'xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"',
      "<pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>",
    ),
    description(
      'xmlns:dc="http://purl.org/dc/elements/1.1/"',
      [
        "<dc:format>application/pdf</dc:format>",
        element("dc:title", info.title, "Alt"),
        element("dc:creator", info.author, "Seq"),
        element("dc:description", info.subject, "Alt"),
      ].join(""),
    ),
    description(
      'xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
      [
        element("xmp:CreatorTool", info.creator),
        element("xmp:CreateDate", info.created),
        element("xmp:ModifyDate", info.modified),
      ].join(""),
    ),
    description(
      'xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
      [element("pdf:Producer", info.producer), element("pdf:Keywords", info.keywords)].join(""),
    ),
    description(
      'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"',
      [
        '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">',
        "<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>",
        `<pdfaSchema:namespaceURI>${FACTUR_X_NAMESPACE}</pdfaSchema:namespaceURI>`,
        "<pdfaSchema:prefix>fx</pdfaSchema:prefix>",
        "<pdfaSchema:property><rdf:Seq>",
        property("DocumentFileName", "The name of the embedded XML document"),
        property(
          "DocumentType",
          "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER",
        ),
        property(
          "Version",
          "The actual version of the standard applying to the embedded XML document",
        ),
        property("ConformanceLevel", "The conformance level of the embedded XML document"),
        "</rdf:Seq></pdfaSchema:property>",
        "</rdf:li></rdf:Bag></pdfaExtension:schemas>",
      ].join(""),
    ),
    description(
      `xmlns:fx="${FACTUR_X_NAMESPACE}"`,
      [
        "<fx:DocumentType>INVOICE</fx:DocumentType>",
        element("fx:DocumentFileName", facturX.documentFileName),
        "<fx:Version>1.0</fx:Version>",
        element("fx:ConformanceLevel", facturX.conformanceLevel),
      ].join(""),
    ),
    "</rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="w"?>',
  ].join("\n");
}
