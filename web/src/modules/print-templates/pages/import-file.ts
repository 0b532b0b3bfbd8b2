import { ZPrintTemplateExportDocument, type TPrintTemplateExportDocument } from '@tessera/core/contracts/print-templates';

/** Reads a picked file: a print template export the contract accepts (as written in the file), else null. */
export function parsePrintTemplateFile(text: string): TPrintTemplateExportDocument | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  return ZPrintTemplateExportDocument.safeParse(doc).success ? (doc as TPrintTemplateExportDocument) : null;
}
