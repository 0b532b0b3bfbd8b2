import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { ZQrCodeQuery, type TQrCodeQuery } from '@tessera/core/contracts/qr-code';
import { AppError } from '../../platform/errors.ts';
import { signedIn } from '../../platform/route-access.ts';

const TOO_LONG = {
  'zh-CN': '内容过长，无法在纠错级别 {level} 下生成二维码；请缩短内容或降低纠错级别',
  'en-US': 'The content is too long for a QR code at error-correction level {level}; shorten it or lower the level',
} as const;

/** The QR image as PNG bytes or SVG text; null when the content does not fit a QR code. */
export async function renderQrCode(q: TQrCodeQuery): Promise<{ type: string; body: Buffer | string } | null> {
  const options = {
    errorCorrectionLevel: q.errorCorrectionLevel,
    margin: q.margin,
    width: q.size,
    color: { dark: `${q.dark}ff`, light: `${q.light}ff` },
  };
  try {
    if (q.format === 'svg') return { type: 'image/svg+xml; charset=utf-8', body: await QRCode.toString(q.content, { ...options, type: 'svg' }) };
    return { type: 'image/png', body: await QRCode.toBuffer(q.content, { ...options, type: 'png' }) };
  } catch (err) {
    // qrcode's only input error: "The amount of data is too big to be stored in a QR Code".
    if (err instanceof Error && /too big/i.test(err.message)) return null;
    throw err;
  }
}

export async function qrCodeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // spec §7: GET /api/app/qr-code/qr-code (params) → an image. Later the scan-code module signs record links with it.
  app.get('/app/qr-code/qr-code', {
    config: signedIn(),
    schema: {
      summary: 'A QR code image of `content` (png or svg); content longer than the QR limit for the level is a 400',
      querystring: ZQrCodeQuery,
    },
    handler: async (req, reply) => {
      const image = await renderQrCode(req.query);
      if (!image) {
        const message = TOO_LONG[req.ctx.culture].replace('{level}', req.query.errorCorrectionLevel);
        throw new AppError(400, 'ValidationError', null, { message, validationErrors: [{ message, members: ['querystring.content'] }] });
      }
      return reply.header('content-type', image.type).header('cache-control', 'private, max-age=86400').send(image.body);
    },
  });
}
