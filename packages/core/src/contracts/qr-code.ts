import { z } from 'zod';
import { zText } from './text.ts';

/** `GET /api/app/qr-code/qr-code` (spec §7): a QR image of `content`. */
export const ZQrCodeQuery = z.object({
  // 7089 is the largest QR payload (numeric, level L); what fits depends on the content and level.
  content: zText().min(1).max(7089),
  /** Image width and height in pixels. */
  size: z.coerce.number().int().min(32).max(2048).default(256),
  /** Quiet zone in modules. */
  margin: z.coerce.number().int().min(0).max(20).default(2),
  /** Error correction: L 7%, M 15%, Q 25%, H 30%. */
  errorCorrectionLevel: z.enum(['L', 'M', 'Q', 'H']).default('M'),
  format: z.enum(['png', 'svg']).default('png'),
  dark: zText().regex(/^#[0-9a-fA-F]{6}$/).default('#000000'),
  light: zText().regex(/^#[0-9a-fA-F]{6}$/).default('#ffffff'),
});
export type TQrCodeQuery = z.infer<typeof ZQrCodeQuery>;
