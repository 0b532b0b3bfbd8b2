/*
 * A print worker thread: turns pdfme templates and inputs into PDF bytes with the product's
 * fonts. It imports nothing of the product (Node runs it with its own type stripping, apart from
 * the server's loader), keeps the parsed fonts for its lifetime, and answers one job at a time.
 * Messages: { id, jobs: [{ template, inputs, fonts }] } → { id, pdf } | { id, error }. Several jobs are
 * merged into one document in order (records whose every-page texts differ are separate jobs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { generate } from '@pdfme/generator';
import { barcodes, image, line, rectangle, table, text } from '@pdfme/schemas';
import { PDFDocument } from '@pdfme/pdf-lib';

const require = createRequire(import.meta.url);
const fontFile = (pkg: string, file: string) => readFileSync(require.resolve(`${pkg}/${file}`));
const FONTS = {
  sans: { data: fontFile('@expo-google-fonts/noto-sans-sc', '400Regular/NotoSansSC_400Regular.ttf'), fallback: true, subset: true },
  sansBold: { data: fontFile('@expo-google-fonts/noto-sans-sc', '700Bold/NotoSansSC_700Bold.ttf'), subset: true },
  serif: { data: fontFile('@expo-google-fonts/noto-serif-sc', '400Regular/NotoSerifSC_400Regular.ttf'), subset: true },
};
const PLUGINS = { text, table, line, rectangle, image, qrcode: barcodes.qrcode, code128: barcodes.code128, ean13: barcodes.ean13 };

interface Job {
  template: unknown;
  inputs: Record<string, string>[];
  /** The fonts the template uses ('sans' is always there: the fallback). Each font given is parsed and embedded per document. */
  fonts: (keyof typeof FONTS)[];
}

async function render(jobs: Job[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const job of jobs) {
    parts.push(await generate({ template: job.template as never, inputs: job.inputs, plugins: PLUGINS, options: { font: Object.fromEntries(job.fonts.map((f) => [f, FONTS[f]])), title: 'Tessera' } }));
  }
  if (parts.length === 1) return parts[0]!;
  const merged = await PDFDocument.create();
  for (const part of parts) {
    const doc = await PDFDocument.load(part);
    for (const page of await merged.copyPages(doc, doc.getPageIndices())) merged.addPage(page);
  }
  return merged.save();
}

parentPort!.on('message', (message: { id: number; jobs: Job[] }) => {
  render(message.jobs).then(
    (pdf) => parentPort!.postMessage({ id: message.id, pdf }, [pdf.buffer as ArrayBuffer]),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
parentPort!.postMessage({ ready: true });
