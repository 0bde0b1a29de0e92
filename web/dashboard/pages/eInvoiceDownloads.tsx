import type {
  EInvoiceFormat,
  eInvoiceMissingFields,
} from "../../../app/invoices/invoiceEInvoice.ts";

/** What each format lacks (app/invoices/invoiceEInvoice.ts): an empty list, the file is there. */
export type EInvoiceReadiness = ReturnType<typeof eInvoiceMissingFields>;
type MissingField = EInvoiceReadiness[EInvoiceFormat][number];

export const EINVOICE_LABELS: Record<EInvoiceFormat, string> = {
  ubl: "UBL",
  cii: "CII",
  facturx: "Factur-X",
};

const FORMATS = Object.keys(EINVOICE_LABELS) as EInvoiceFormat[];

/** The formats that can be downloaded now. */
export const readyFormats = (readiness: EInvoiceReadiness): EInvoiceFormat[] =>
  FORMATS.filter((format) => readiness[format].length === 0);

/**
 * The e-invoice downloads of an invoice or a credit note (`base` + `?format=`): a link per
 * format that answers, and for the others what the invoice lacks (the fields the download's 409
 * would name), said once for the formats that lack the same.
 */
export function EInvoiceDownloads(props: { base: string; readiness: EInvoiceReadiness }) {
  const missing = new Map<string, { formats: EInvoiceFormat[]; fields: MissingField[] }>();
  for (const format of FORMATS) {
    const fields = props.readiness[format];
    if (fields.length === 0) continue;
    const key = JSON.stringify(fields);
    const same = missing.get(key) ?? { formats: [], fields };
    missing.set(key, { ...same, formats: [...same.formats, format] });
  }
  const ready = readyFormats(props.readiness);
  return (
    <div class="einvoice">
      {ready.length > 0 && (
        <p class="actions">
          {ready.map((format) => (
            <a class="button" href={`${props.base}?format=${format}`} data-einvoice={format}>
              {EINVOICE_LABELS[format]}
              {format === "facturx" ? " (PDF)" : " (XML)"}
            </a>
          ))}
        </p>
      )}
      {[...missing.values()].map(({ formats, fields }) => (
        <div class="small" data-einvoice-missing={formats.join(" ")}>
          <p>
            No {formats.map((format) => EINVOICE_LABELS[format]).join(", ")}: the invoice lacks what
            an EN 16931 e-invoice requires. Invoices are not edited: issue a new one with these
            fields.
          </p>
          <ul>
            {fields.map((field) => (
              <li data-missing-field={field.field}>
                <code>{field.field}</code>: {field.message}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
