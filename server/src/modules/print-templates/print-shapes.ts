/*
 * The worker's own PDF renderers for two pdfme types, in place of pdfme's.
 *
 * QR codes, drawn as vectors. pdfme's own QR plugin asks bwip-js for a PNG at 5× scale, which pdf-lib
 * then decodes and deflates again: about 15 ms of a 30 ms one-page order, and a picture that blurs
 * when a printer scales it. Here the `qrcode` package encodes the text (error correction M, like
 * bwip-js) and the dark modules become one filled path — one run of squares per row — on a
 * background rectangle, square and centred in the element's box, turned about its centre like
 * pdfme's other elements. A text that cannot be a QR code (too long) prints nothing, as in pdfme.
 *
 * Rectangles. pdfme 6 shifts a turned rectangle by tan(angle)·π² points — at 90° off the page — so
 * a rectangle is drawn here turned about its centre like every other element, its border inside
 * the box.
 */
import type { PDFPage } from '@pdfme/pdf-lib';
import { mm2pt } from '@pdfme/common';
import { convertForPdfLayoutProps, hex2PrintingColor } from '@pdfme/schemas/utils';
import QRCode from 'qrcode';

interface Box {
  position: { x: number; y: number };
  width: number;
  height: number;
  rotate?: number;
  opacity?: number;
}
interface QrSchema extends Box {
  backgroundColor?: string;
  barColor?: string;
}
interface RectangleSchema extends Box {
  borderWidth?: number;
  borderColor?: string;
  color?: string;
}
type Render<S> = (arg: { value: string; schema: S; page: PDFPage; options: { colorType?: 'rgb' | 'cmyk' } }) => Promise<void>;

/** A point `(dx, dy)` of a box whose bottom-left corner is at `origin`, turned by `angle` degrees about that corner (as pdf-lib turns). */
const along = (origin: { x: number; y: number }, angle: number, dx: number, dy: number) => {
  const a = (angle * Math.PI) / 180;
  return { x: origin.x + dx * Math.cos(a) - dy * Math.sin(a), y: origin.y + dx * Math.sin(a) + dy * Math.cos(a) };
};

/**
 * The path of a QR code's dark modules (one module = one unit), or null when the text cannot be
 * encoded. Its y axis points up, as pdf-lib draws paths (no flip): the first row is at y = size - 1.
 */
export function qrPath(value: string): { path: string; size: number } | null {
  let modules: { size: number; data: Uint8Array };
  try {
    modules = QRCode.create(value, { errorCorrectionLevel: 'M' }).modules;
  } catch {
    return null;
  }
  const { size, data } = modules;
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      parts.push(`M${start} ${size - 1 - row}h${col - start}v1h${start - col}z`);
    }
  }
  return { path: parts.join(''), size };
}

/** pdfme's `pdf` renderer for the qrcode type. */
export const drawVectorQrCode: Render<QrSchema> = async ({ value, schema, page, options }) => {
  if (!value) return;
  const qr = qrPath(value);
  if (!qr) return;
  const { position, width, height, rotate, opacity } = convertForPdfLayoutProps({ schema: schema as never, pageHeight: page.getHeight() });
  if (schema.backgroundColor) page.drawRectangle({ x: position.x, y: position.y, width, height, rotate, opacity, color: hex2PrintingColor(schema.backgroundColor, options.colorType) });
  const side = Math.min(width, height);
  // The square's bottom-left corner: centred in the box.
  page.drawSvgPath(qr.path, {
    ...along(position, rotate.angle, (width - side) / 2, (height - side) / 2),
    scale: side / qr.size,
    rotate,
    opacity,
    color: hex2PrintingColor(schema.barColor || '#000000', options.colorType),
  });
};

/** pdfme's `pdf` renderer for the rectangle type. */
export const drawRectangleBox: Render<RectangleSchema> = async ({ schema, page, options }) => {
  if (!schema.color && !schema.borderColor) return;
  const { position, width, height, rotate, opacity } = convertForPdfLayoutProps({ schema: schema as never, pageHeight: page.getHeight() });
  const border = schema.borderColor && schema.borderWidth ? mm2pt(schema.borderWidth) : 0;
  page.drawRectangle({
    ...along(position, rotate.angle, border / 2, border / 2),
    width: Math.max(0, width - border),
    height: Math.max(0, height - border),
    rotate,
    opacity,
    borderOpacity: opacity,
    borderWidth: border,
    ...(border > 0 ? { borderColor: hex2PrintingColor(schema.borderColor!, options.colorType) } : {}),
    ...(schema.color ? { color: hex2PrintingColor(schema.color, options.colorType) } : {}),
  });
};
