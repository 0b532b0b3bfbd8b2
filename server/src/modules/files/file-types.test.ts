import { describe, expect, it } from 'vitest';
import { attachmentProblem, cleanFileName, contentDisposition, sniffAttachment, sniffImage } from './file-types.ts';

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p)] : p)));

describe('file types', () => {
  it.each([
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['gif', bytes('GIF89a...'), 'image/gif'],
    ['webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '), 'image/webp'],
    ['html named .png', bytes('<html><script>alert(1)</script>'), null],
    ['svg', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), null],
    ['empty', bytes(), null],
  ])('sniffs %s as an image or not', (_name, head, type) => {
    expect(sniffImage(head)).toBe(type);
  });

  it.each([
    ['report.pdf', bytes('%PDF-1.7'), null],
    ['notes.txt', bytes('plain text'), null],
    ['setup.exe', bytes('anything'), 'extension'],
    ['page.HTML', bytes('hello'), 'extension'],
    ['logo.svg', bytes('<svg/>'), 'extension'],
    ['tool.bin', bytes([0x4d, 0x5a, 0x90, 0]), 'content'],
    ['linux.dat', bytes([0x7f, 0x45, 0x4c, 0x46]), 'content'],
    ['readme.txt', bytes('\uFEFF  <!DOCTYPE html><p>x'), 'content'],
    ['data.txt', bytes('  <script>alert(1)</script>'), 'content'],
  ])('attachment %s', (name, head, problem) => {
    expect(attachmentProblem(name, head)).toBe(problem);
  });

  it('names recognised attachment types, else octet-stream', () => {
    expect(sniffAttachment(bytes('%PDF-1.4'))).toBe('application/pdf');
    expect(sniffAttachment(bytes('hello'))).toBe('application/octet-stream');
  });

  it('cleans names and encodes them for Content-Disposition', () => {
    expect(cleanFileName('C:\\fakepath\\合同\u0000.pdf')).toBe('合同.pdf');
    expect(cleanFileName('../..')).toBe('file');
    expect(contentDisposition('attachment', '采购合同 (1).pdf')).toBe(
      `attachment; filename="____ (1).pdf"; filename*=UTF-8''%E9%87%87%E8%B4%AD%E5%90%88%E5%90%8C%20%281%29.pdf`,
    );
  });
});
