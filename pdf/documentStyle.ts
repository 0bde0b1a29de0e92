import type { Content } from "pdfmake/interfaces";

/** The colours of Remit's documents (invoices, credit notes). */
export const INK = "#1f2933";
export const MUTED = "#616e7c";
export const RULE = "#d9e2ec";
export const ACCENT = "#1652f0";

/** A section's small capital label ("BILL TO", "REASON"). */
export const label = (value: string): Content => ({ text: value.toUpperCase(), style: "label" });
