/*
 * A print worker thread: turns pdfme templates and inputs into PDF bytes with the product's
 * fonts. It imports nothing of the product (Node runs it with its own type stripping, apart from
 * the server's loader), keeps the parsed fonts for its lifetime, and answers one job at a time.
 * Messages: { id, jobs: [{ template, inputs, fonts }] } → { id, pdf } | { id, error }. Several jobs are
 * merged into one document in order (records whose every-page texts differ are separate jobs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { generate } from '@pdfme/generator';
import { barcodes, image, line, rectangle, table, text } from '@pdfme/schemas';
import { PDFDocument } from '@pdfme/pdf-lib';
import { shareParsedTables } from './print-fonts.ts';
import { drawRectangleBox, drawVectorQrCode } from './print-shapes.ts';
import { isPagedTable, type PagedTable } from './print-sums.ts';
import { withPageSubtotals } from './print-table-pages.ts';

// Printing is batch work: on Linux, where a priority belongs to a thread, this thread yields the CPU
// to the request thread when both want it (elsewhere it would lower the whole process: left alone).
if (process.platform === 'linux') {
  try {
    setPriority(10);
  } catch {
    // Not allowed here (a sandbox): PDFs are made at the server's priority.
  }
}

const require = createRequire(import.meta.url);
const fontFile = (pkg: string, file: string) => readFileSync(require.resolve(`${pkg}/${file}`));
const FONTS = {
  sans: { data: fontFile('@expo-google-fonts/noto-sans-sc', '400Regular/NotoSansSC_400Regular.ttf'), fallback: true, subset: true },
  sansBold: { data: fontFile('@expo-google-fonts/noto-sans-sc', '700Bold/NotoSansSC_700Bold.ttf'), subset: true },
  serif: { data: fontFile('@expo-google-fonts/noto-serif-sc', '400Regular/NotoSerifSC_400Regular.ttf'), subset: true },
};
shareParsedTables(Object.values(FONTS).map((f) => f.data));
const PLUGINS = { text, table, line, rectangle: { ...rectangle, pdf: drawRectangleBox }, image, qrcode: { ...barcodes.qrcode, pdf: drawVectorQrCode }, code128: barcodes.code128, ean13: barcodes.ean13 };

interface Job {
  template: unknown;
  inputs: Record<string, string>[];
  /** The fonts the template uses ('sans' is always there: the fallback). Each font given is parsed and embedded per document. */
  fonts: (keyof typeof FONTS)[];
}

interface TemplateShape {
  basePdf: { width: number; height: number; padding: [number, number, number, number] };
  schemas: { name: string; type: string; position: { x: number; y: number } }[][];
}

/** Tables with page subtotals come as PagedTable inputs: their rows with the subtotal rows put in. */
async function layOutSubtotals(job: Job, font: object): Promise<Record<string, string>[]> {
  const template = job.template as TemplateShape;
  const tables = template.schemas.flat().filter((s) => s.type === 'table');
  if (!tables.some((t) => job.inputs.some((input) => isPagedTable(input[t.name] ?? '')))) return job.inputs;
  return Promise.all(
    job.inputs.map(async (input) => {
      const laid = { ...input };
      for (const t of tables) {
        const value = input[t.name] ?? '';
        if (isPagedTable(value)) laid[t.name] = JSON.stringify(await withPageSubtotals(JSON.parse(value) as PagedTable, t, template.basePdf, font));
      }
      return laid;
    }),
  );
}

async function render(jobs: Job[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const job of jobs) {
    const font = Object.fromEntries(job.fonts.map((f) => [f, FONTS[f]]));
    parts.push(await generate({ template: job.template as never, inputs: await layOutSubtotals(job, font), plugins: PLUGINS, options: { font, title: 'Tessera' } }));
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
