/**
 * What a PDF shows, for the print tests: each page's text and each page drawn as a PNG, by Mozilla's
 * PDF.js with the fonts the PDF embeds (npm packages only: no system tools, no system fonts).
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

async function open(pdf: Uint8Array | Buffer) {
  return getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
}

/** The text of each page, its pieces joined by spaces. */
export async function pdfPageTexts(pdf: Uint8Array | Buffer): Promise<string[]> {
  const doc = await open(pdf);
  const texts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.cleanup();
  return texts;
}

/** Each page as a PNG at `dpi`. */
export async function pdfPagePngs(pdf: Uint8Array | Buffer, dpi = 40): Promise<Buffer[]> {
  const doc = await open(pdf);
  const pngs: Buffer[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const { canvas, context } = (doc.canvasFactory as { create(w: number, h: number): unknown }).create(Math.ceil(viewport.width), Math.ceil(viewport.height)) as { canvas: { toBuffer(type: string): Buffer }; context: unknown };
    await page.render({ canvasContext: context as never, viewport, canvas: canvas as never }).promise;
    pngs.push(canvas.toBuffer('image/png'));
  }
  await doc.cleanup();
  return pngs;
}
