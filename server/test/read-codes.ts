/**
 * The codes a picture shows (QR, Code 128, EAN-13), read by ZXing (zxing-wasm, its WebAssembly build
 * loaded from node_modules — never from a CDN), for the print tests: a printed code must scan.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

let ready: Promise<unknown> | null = null;

export async function readCodes(png: Buffer): Promise<{ format: string; text: string }[]> {
  if (!ready) {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    ready = prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.length) as ArrayBuffer }, fireImmediately: true });
  }
  await ready;
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const image = { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, colorSpace: 'srgb' };
  const found = await readBarcodes(image as never, { formats: ['QRCode', 'Code128', 'EAN13'], maxNumberOfSymbols: 10 });
  return found.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}
