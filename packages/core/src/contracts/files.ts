import { z } from 'zod';
import { ZIdentifier } from './pages.ts';
import { zText } from './text.ts';

/*
 * Files of attachment (1013) and image (1014) controls. The upload is multipart (`file`, with
 * `pageCode` and `controlCode` as fields or query parameters); the answer is the file reference a
 * control's value lists (`[{ id, name, size, type }]`, JSON text in the record).
 */

export const ZUploadFileInput = z.object({
  pageCode: ZIdentifier,
  controlCode: ZIdentifier,
});
export type TUploadFileInput = z.infer<typeof ZUploadFileInput>;

export const ZFileRef = z.object({
  id: z.uuid(),
  name: zText(),
  size: z.number().int().min(0),
  type: zText(),
});
export type TFileRef = z.infer<typeof ZFileRef>;

export const ZFileIdParams = z.object({ id: z.uuid() });

export const ZFileDownloadQuery = z.object({
  /** `1`: an image is shown in the page (`inline`) instead of downloaded; other files always download. */
  inline: z.enum(['0', '1']).optional(),
});
