import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceContext } from '../../platform/context.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { THelpImage } from '@tessera/core/contracts/help';
import { recordAudit } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors.ts';
import { helpInvalid } from './help.messages.ts';

export const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;
type Extension = keyof typeof IMAGE_TYPES;

const startsWith = (bytes: Buffer, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);

/** The image type from its first bytes (the declared content type and file name are not trusted). */
export function sniffImage(bytes: Buffer): Extension | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

export const helpImageDir = (ctx: ServiceContext) => path.join(ctx.config.dataDir, 'files', 'help');

/** Stores an uploaded image under DATA_DIR/files/help with a new name. */
export async function saveImage(ctx: ServiceContext, body: unknown): Promise<THelpImage> {
  const bytes = Buffer.isBuffer(body) ? body : null;
  if (!bytes || bytes.length === 0) throw helpInvalid(ctx, 'image.empty', ['body']);
  const ext = sniffImage(bytes);
  if (!ext) throw helpInvalid(ctx, 'image.unsupported', ['body']);
  const name = `${uuidv7()}.${ext}`;
  const dir = helpImageDir(ctx);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), bytes, { flag: 'wx', mode: 0o640 });
  const image = { name, url: `/api/app/help-documents/images/${name}`, contentType: IMAGE_TYPES[ext], size: bytes.length };
  await recordAudit(ctx, 'Created', { entityType: 'HelpImage', entityId: name, details: { after: image } });
  return image;
}

/** Reads a stored image; the name was checked against the stored-name pattern by the route. */
export async function readImage(ctx: ServiceContext, name: string): Promise<{ content: Buffer; contentType: string }> {
  const ext = name.slice(name.lastIndexOf('.') + 1) as Extension;
  try {
    return { content: await readFile(path.join(helpImageDir(ctx), path.basename(name))), contentType: IMAGE_TYPES[ext] };
  } catch {
    throw notFound({ name });
  }
}
