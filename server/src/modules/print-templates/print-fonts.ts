/*
 * The print worker's fonts, parsed once per worker. pdfme and pdf-lib each call fontkit.create on the
 * font bytes for every PDF; the parse itself is cheap, but fontkit then decodes the tables it needs
 * (cmap, hmtx, GSUB, glyf…) on first use and keeps them on that font object only — about 10 ms of a
 * 30 ms one-page Chinese order. `shareParsedTables` makes every font object fontkit creates for one
 * of the given byte arrays share the decoded tables and glyphs of the first one. The bytes are
 * immutable and fontkit only adds to these caches, so sharing them cannot change a PDF (the golden
 * tests check that); subsetting stays per document (pdf-lib's own subset object).
 *
 * It reaches into fontkit's TrueType class (`_decodeDirectory`, `_tables`, `_glyphs` in fontkit 2).
 * If a later fontkit no longer has them, nothing is shared and PDFs are made as before.
 */
import * as fontkit from 'fontkit';

interface FontInternals {
  stream: { buffer: Uint8Array };
  directory: unknown;
  _tables: object;
  _glyphs: object;
  _decodeDirectory(): unknown;
}

export function shareParsedTables(fonts: Uint8Array[]): boolean {
  if (fonts.length === 0) return false;
  const sample = fontkit.create(Buffer.from(fonts[0]!.buffer, fonts[0]!.byteOffset, fonts[0]!.length)) as unknown as FontInternals;
  const proto = Object.getPrototypeOf(sample) as FontInternals;
  const decode = proto._decodeDirectory;
  if (typeof decode !== 'function' || !('_tables' in sample) || !('_glyphs' in sample) || !sample.stream?.buffer) return false;
  const first = new Map<Uint8Array, FontInternals>();
  // pdfme hands fontkit our Buffer itself; pdf-lib may copy it — then the bytes are compared (a memcmp).
  const known = (bytes: Uint8Array) => fonts.find((f) => f === bytes || (f.length === bytes.length && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).equals(f)));
  proto._decodeDirectory = function (this: FontInternals) {
    const key = known(this.stream.buffer);
    const shared = key && first.get(key);
    if (shared) {
      this._tables = shared._tables;
      this._glyphs = shared._glyphs;
      return (this.directory = shared.directory);
    }
    const directory = decode.call(this);
    if (key) first.set(key, this);
    return directory;
  };
  return true;
}
