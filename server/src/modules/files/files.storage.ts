import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { SNIFF_BYTES } from './file-types.ts';

/*
 * The bytes of uploaded files, on disk under the data folder: `<data>/files/ab/cd/<uuid>` (two
 * levels of fan-out keep directories small), an image's thumbnail beside it (`<uuid>.thumb.webp`),
 * uploads in progress under `<data>/files/incoming/` until they are checked.
 */

export const filesRoot = (dataDir: string) => path.join(dataDir, 'files');
export const storageKeyOf = (id: string) => `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
const fullPath = (root: string, key: string) => path.join(root, ...key.split('/'));

export class TooLarge extends Error {}

export interface Received {
  tmpPath: string;
  size: number;
  sha256: string;
  /** The first bytes, for sniffing the type. */
  head: Uint8Array;
}

/** Streams an upload to a temporary file, hashing and counting; more than `maxBytes` throws `TooLarge` (nothing kept). */
export async function receiveUpload(root: string, source: Readable, maxBytes: number): Promise<Received> {
  const incoming = path.join(root, 'incoming');
  await mkdir(incoming, { recursive: true });
  const tmpPath = path.join(incoming, randomUUID());
  const hash = createHash('sha256');
  let size = 0;
  const headParts: Buffer[] = [];
  let headSize = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new TooLarge());
      hash.update(chunk);
      if (headSize < SNIFF_BYTES) {
        headParts.push(chunk.subarray(0, SNIFF_BYTES - headSize));
        headSize += Math.min(chunk.length, SNIFF_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(tmpPath, { flags: 'wx' }));
  } catch (error) {
    await rm(tmpPath, { force: true });
    // The multipart reader's own cap (a backstop above every control's limit) ends the stream too.
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new TooLarge();
    throw error;
  }
  return { tmpPath, size, sha256: hash.digest('hex'), head: new Uint8Array(Buffer.concat(headParts)) };
}

export async function keepUpload(root: string, tmpPath: string, key: string): Promise<void> {
  const target = fullPath(root, key);
  await mkdir(path.dirname(target), { recursive: true });
  await rename(tmpPath, target);
}

export const discard = (filePath: string) => rm(filePath, { force: true });
export const removeStored = (root: string, key: string) => Promise.all([rm(fullPath(root, key), { force: true }), rm(`${fullPath(root, key)}.thumb.webp`, { force: true })]);

export function openStored(root: string, key: string): ReadStream {
  return createReadStream(fullPath(root, key));
}

const THUMBNAIL_SIDE = 200;

/** An image's thumbnail (200 px on its longer side at most, WebP), made on first request and kept beside the original. */
export async function thumbnailOf(root: string, key: string): Promise<{ stream: ReadStream; size: number }> {
  const thumb = `${fullPath(root, key)}.thumb.webp`;
  const existing = await stat(thumb).catch(() => null);
  if (!existing) {
    const tmp = `${thumb}.${randomUUID()}.tmp`;
    // `limitInputPixels` refuses decompression bombs; `rotate()` honours the EXIF orientation.
    await sharp(fullPath(root, key), { limitInputPixels: 100_000_000, animated: false })
      .rotate()
      .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toFile(tmp);
    await rename(tmp, thumb);
  }
  return { stream: createReadStream(thumb), size: (await stat(thumb)).size };
}
