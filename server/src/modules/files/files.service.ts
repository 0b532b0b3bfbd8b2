import type { Readable } from 'node:stream';
import { ControlTypeId } from '@tessera/core/controls/registry';
import type { TFileRef, TUploadFileInput } from '@tessera/core/contracts/files';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError, type ValidationErrorItem } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { mayReadRecordField, requireFileControl, type RecordFileBinder } from '../business-data/index.ts';
import { acceptedExtensions, attachmentProblem, cleanFileName, extensionOf, sniffAttachment, sniffImage } from './file-types.ts';
import { fileMessages } from './files.messages.ts';
import * as repo from './files.repository.ts';
import { discard, filesRoot, keepUpload, openStored, receiveUpload, removeStored, storageKeyOf, thumbnailOf, TooLarge } from './files.storage.ts';

/*
 * Uploads, downloads and thumbnails of attachment (1013) and image (1014) controls. Who may do
 * what follows the page and the record, not a fixed permission:
 *   upload     the page's "add" or "edit" action and the right to edit the control
 *   read       a file a saved record references: whoever may read that record's field (page
 *              access, field view, data scope — business-data's `mayReadRecordField`);
 *              a file no saved record references yet: its uploader only
 *   bind       a save may reference files of the same page and control that are unbound and its
 *              caller's own, or already bound to the record it saves (`bindSavedFiles`)
 * A file someone may not read is a 404, so its existence is not told either.
 */

export const DEFAULT_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const megabytes = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

export function uploadLimits(ctx: Pick<ServiceContext, 'config'>) {
  return { maxBytes: ctx.config.files?.maxBytes ?? DEFAULT_FILE_MAX_BYTES, imageMaxBytes: ctx.config.files?.imageMaxBytes ?? DEFAULT_IMAGE_MAX_BYTES };
}

/** Stores one uploaded file for a control of a page; answers the reference the control's value lists. */
export async function uploadFile(ctx: ServiceContext, input: TUploadFileInput, file: { name: string; stream: Readable }): Promise<TFileRef> {
  const target = await requireFileControl(ctx, input).catch((error: unknown) => {
    file.stream.resume();
    throw error;
  });
  const isImage = target.controlType === ControlTypeId.Image;
  const limits = uploadLimits(ctx);
  const max = isImage ? limits.imageMaxBytes : limits.maxBytes;
  const name = cleanFileName(file.name);
  const accepted = isImage ? [] : acceptedExtensions(target.control.extraProperties?.accept);
  if (accepted.length && !accepted.includes(extensionOf(name))) {
    file.stream.resume();
    throw fileMessages.invalid(ctx, 'upload.notAccepted', ['file'], { name, accept: accepted.map((e) => `.${e}`).join(', ') });
  }
  const root = filesRoot(ctx.config.dataDir);
  const received = await receiveUpload(root, file.stream, max).catch((error: unknown) => {
    file.stream.resume();
    if (error instanceof TooLarge) throw fileMessages.error(ctx, 413, 'PayloadTooLarge', 'upload.tooLarge', { name, max: megabytes(max) }, { members: ['file'] });
    throw error;
  });
  let type: string;
  if (isImage) {
    const image = sniffImage(received.head);
    if (!image) {
      await discard(received.tmpPath);
      throw fileMessages.invalid(ctx, 'upload.notImage', ['file'], { name });
    }
    type = image;
  } else {
    if (attachmentProblem(name, received.head)) {
      await discard(received.tmpPath);
      throw fileMessages.invalid(ctx, 'upload.blockedType', ['file'], { name });
    }
    type = sniffAttachment(received.head);
  }
  const id = uuidv7();
  const key = storageKeyOf(id);
  await keepUpload(root, received.tmpPath, key);
  try {
    await ctx.db.transaction().execute((trx) =>
      repo.insertFile(trx, {
        id, page_id: target.pageId, page_code: target.pageCode, control_code: target.controlCode, original_name: name, content_type: type,
        size: received.size, sha256: received.sha256, storage_key: key, created_by: ctx.user?.id ?? null, created_at: ctx.now(),
      }),
    );
  } catch (error) {
    await removeStored(root, key);
    throw error;
  }
  await sweepStaleFiles(ctx).catch((error: unknown) => ctx.log.warn({ err: error }, 'file sweep failed'));
  return { id, name, size: received.size, type };
}

/** A file the caller may read (404 otherwise), with its stored bytes. */
export async function openFile(ctx: ServiceContext, id: string) {
  const row = await repo.fileById(ctx.db, id.toLowerCase());
  if (!row || !(await mayRead(ctx, row))) throw fileMessages.error(ctx, 404, 'NotFound', 'file.notFound');
  return { row, open: () => openStored(filesRoot(ctx.config.dataDir), row.storage_key) };
}

/** An image's thumbnail (WebP, 200 px at most), for whoever may read the image. */
export async function fileThumbnail(ctx: ServiceContext, id: string) {
  const { row } = await openFile(ctx, id);
  if (!sniffableImage(row.content_type)) throw fileMessages.invalid(ctx, 'thumbnail.notImage', ['id']);
  try {
    return await thumbnailOf(filesRoot(ctx.config.dataDir), row.storage_key);
  } catch (error) {
    // The bytes start like an image but do not decode (or exceed the pixel limit): the caller's file, not a server fault.
    ctx.log.warn({ err: error, file: row.id }, 'thumbnail failed');
    throw fileMessages.error(ctx, 422, 'UnreadableImage', 'thumbnail.failed', { name: row.original_name });
  }
}

const HOUR = 3_600_000;
/** Unsaved uploads and files a save dropped are removed once they are this old. */
export const STALE_FILE_AGE_MS = 24 * HOUR;
const lastSweeps = new WeakMap<object, number>();

/**
 * Removes files nobody can reach any more: uploads no save referenced, and files saves dropped,
 * older than a day (rows and bytes). Runs at most once an hour per database, after an upload;
 * `force` runs it now (tests, a maintenance job).
 */
export async function sweepStaleFiles(ctx: ServiceContext, options: { force?: boolean } = {}): Promise<number> {
  const now = ctx.now().getTime();
  if (!options.force && now - (lastSweeps.get(ctx.db) ?? 0) < HOUR) return 0;
  lastSweeps.set(ctx.db, now);
  const stale = await ctx.db.transaction().execute((trx) => repo.deleteStaleFiles(trx, new Date(now - STALE_FILE_AGE_MS), 1000));
  const root = filesRoot(ctx.config.dataDir);
  await Promise.all(stale.map((key) => removeStored(root, key)));
  return stale.length;
}

export const sniffableImage = (type: string) => ['image/png', 'image/jpeg', 'image/gif', 'image/webp'].includes(type);

async function mayRead(ctx: ServiceContext, row: repo.FileRow): Promise<boolean> {
  if (ctx.isSystem) return true;
  if (!ctx.user) return false;
  if (row.record_id === null) return row.created_by === ctx.user.id;
  try {
    return await mayReadRecordField(ctx, { pageId: row.page_id, recordId: row.record_id, controlCode: row.control_code });
  } catch (error) {
    // The page is no longer published, or the control gone: nobody reads through it.
    if (error instanceof AppError && error.statusCode < 500) return false;
    throw error;
  }
}

/**
 * business-data's save calls this inside its transaction: the files a record gains must exist,
 * belong to the same page and control, carry the name, size and type the upload answered, and be
 * either the caller's own unbound upload or already bound to this record. Problems are answered
 * per field (nothing bound then); otherwise they are bound, and the files the record lost are
 * marked deleted.
 */
export const bindSavedFiles: RecordFileBinder = async (trx, binding) => {
  const t = fileMessages.translator(binding.culture);
  const ids = [...new Set(binding.uses.flatMap((u) => u.added.map((f) => f.id.toLowerCase())))];
  const rows = new Map((await repo.filesForBinding(trx, ids)).map((r) => [r.id, r]));
  const problems: ValidationErrorItem[] = [];
  const unbound: string[] = [];
  for (const use of binding.uses) {
    let key: 'bind.unknown' | 'bind.notYours' | 'bind.otherRecord' | null = null;
    for (const file of use.added) {
      const row = rows.get(file.id.toLowerCase());
      if (!row || row.is_deleted || row.page_id !== binding.pageId || row.control_code !== use.controlCode || row.original_name !== file.name || row.size !== file.size || row.content_type !== file.type) {
        key = 'bind.unknown';
      } else if (row.record_id === null) {
        if (binding.userId !== null && row.created_by !== binding.userId) key = 'bind.notYours';
        else unbound.push(row.id);
      } else if (row.record_id !== binding.recordId) {
        key = 'bind.otherRecord';
      }
      if (key) break;
    }
    if (key) problems.push({ message: t(key, { title: use.title }), members: [use.member] });
  }
  if (problems.length) return problems;
  await repo.bindFiles(trx, unbound, binding.recordId);
  await repo.markDeleted(trx, binding.dropped, binding.pageId, binding.recordId);
  return [];
};
