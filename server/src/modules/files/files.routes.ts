import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZFileDownloadQuery, ZFileIdParams, ZFileRef, ZUploadFileInput } from '@tessera/core/contracts/files';
import { signedIn } from '../../platform/route-access.ts';
import { contentDisposition } from './file-types.ts';
import { fileMessages } from './files.messages.ts';
import { fileThumbnail, openFile, sniffableImage, uploadFile, uploadLimits } from './files.service.ts';

/*
 * The routes are open to signed-in users; each service checks the page's own codes (add / edit,
 * field rights, data scope) as the business-data routes do — they are data, not fixed codes.
 * Every answer of a file is a download the browser will not run: `nosniff`, a sandboxing CSP, and
 * `attachment` unless an image is asked for `inline`.
 */
export async function fileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const guard = signedIn();
  const limits = uploadLimits(fastify);
  // The reader's own cap is a backstop just above the largest limit; the service applies each control's.
  await app.register(multipart, { limits: { fileSize: Math.max(limits.maxBytes, limits.imageMaxBytes) + 1, files: 1, fields: 10, fieldSize: 1000, parts: 12 } });

  app.post('/app/files', {
    config: guard,
    schema: { operationId: 'uploadFile', summary: 'Uploads one file (multipart: pageCode, controlCode, then file) for an attachment or image control', consumes: ['multipart/form-data'], querystring: ZUploadFileInput.partial(), response: { 200: ZFileRef } },
    handler: async (req) => {
      if (!req.isMultipart()) throw fileMessages.invalid(req.ctx, 'upload.noFile', ['file']);
      const part = await req.file();
      if (!part) throw fileMessages.invalid(req.ctx, 'upload.noFile', ['file']);
      const field = (name: string) => {
        const f = part.fields[name];
        const one = Array.isArray(f) ? f[0] : f;
        return one && one.type === 'field' ? String(one.value) : undefined;
      };
      const input = ZUploadFileInput.safeParse({ pageCode: field('pageCode') ?? req.query.pageCode, controlCode: field('controlCode') ?? req.query.controlCode });
      if (!input.success) {
        part.file.resume();
        const issue = input.error.issues[0];
        throw fileMessages.invalid(req.ctx, 'upload.invalid', [String(issue?.path[0] ?? 'pageCode')], { message: `${String(issue?.path[0] ?? '')}: ${issue?.message ?? ''}` });
      }
      return uploadFile(req.ctx, input.data, { name: part.filename, stream: part.file });
    },
  });

  app.get('/app/files/:id', {
    config: guard,
    schema: { summary: 'Downloads a file (images shown inline with inline=1); readable by whoever may read the record that holds it', params: ZFileIdParams, querystring: ZFileDownloadQuery },
    handler: async (req, reply) => {
      const { row, open } = await openFile(req.ctx, req.params.id);
      const inline = req.query.inline === '1' && sniffableImage(row.content_type);
      return reply
        .header('content-type', inline ? row.content_type : row.content_type === 'application/pdf' ? 'application/pdf' : 'application/octet-stream')
        .header('content-length', row.size)
        .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', row.original_name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('cache-control', 'private, no-cache')
        .send(open());
    },
  });

  app.get('/app/files/:id/thumbnail', {
    config: guard,
    schema: { summary: "An image's thumbnail (WebP, at most 200 px on its longer side)", params: ZFileIdParams },
    handler: async (req, reply) => {
      const { stream, size } = await fileThumbnail(req.ctx, req.params.id);
      return reply
        .header('content-type', 'image/webp')
        .header('content-length', size)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('cache-control', 'private, max-age=3600')
        .send(stream);
    },
  });
}
