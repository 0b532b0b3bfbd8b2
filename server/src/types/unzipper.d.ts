/** The part of unzipper (a dependency of ExcelJS) the workbook reader uses: a zip's directory. */
declare module 'unzipper' {
  import type { Readable } from 'node:stream';
  export interface File {
    path: string;
    type: 'File' | 'Directory';
    uncompressedSize: number;
    stream(password?: string): Readable;
  }
  export interface CentralDirectory {
    files: File[];
  }
  const unzipper: { Open: { buffer(data: Buffer): Promise<CentralDirectory> } };
  export default unzipper;
}
