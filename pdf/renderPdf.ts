import pdfmake from "pdfmake";
import type { TDocumentDefinitions } from "pdfmake/interfaces";
import { fontFiles, pdfFonts, readScriptFont, scriptFontFiles } from "./fontFaces.ts";

pdfmake.setFonts(pdfFonts);
// Documents are built from our own data: pdfmake may read the bundled fonts and fetch nothing.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path: string) => fontFiles.has(path));

// pdfmake looks a font up in its virtual file system before the disk, and only when a document
// uses it: script subsets are served from there as sfnt (see woffToSfnt for why not as WOFF).
type VirtualFileSystem = {
  existsSync(path: string): boolean;
  readFileSync(path: string, options?: unknown): unknown;
};
const vfs = (pdfmake as unknown as { virtualfs: VirtualFileSystem }).virtualfs;
const { existsSync, readFileSync } = vfs;
vfs.existsSync = (path) => scriptFontFiles.has(path) || existsSync.call(vfs, path);
vfs.readFileSync = (path, options) =>
  scriptFontFiles.has(path) ? readScriptFont(path) : readFileSync.call(vfs, path, options);

/** Renders a pdfmake document to PDF bytes (CPU-bound, ~20–80 ms). */
export async function renderPdf(document: TDocumentDefinitions): Promise<Buffer> {
  return pdfmake.createPdf(document).getBuffer();
}
