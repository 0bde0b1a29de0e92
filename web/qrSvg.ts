import QRCode from "qrcode";

/** A QR code as inline SVG (no script, no external resource: fine under the pages' CSP). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
}
