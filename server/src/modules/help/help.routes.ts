import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  HELP_IMAGE_MAX_BYTES,
  ZHelpDeleteQuery,
  ZHelpDocument,
  ZHelpDocumentInput,
  ZHelpDocumentTree,
  ZHelpImage,
  ZHelpImageParam,
  ZHelpKeyParam,
  ZHelpPreview,
  ZHelpPreviewInput,
  ZHelpTreeQuery,
} from '@tessera/core/contracts/help';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission, signedIn } from '../../platform/route-access.ts';
import { readImage, saveImage } from './help-images.service.ts';
import { renderMarkdown } from './help-renderer.ts';
import './help.permissions.ts';
import { createDocument, deleteDocument, documentTree, getDocument, getDocumentByKey, updateDocument } from './help.service.ts';

const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/octet-stream'];

export async function helpRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/help-documents';

  // Image uploads arrive as the raw file (this parser is scoped to the help routes).
  app.addContentTypeParser(UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: HELP_IMAGE_MAX_BYTES }, (_req, body, done) => done(null, body));

  app.get(base, {
    config: signedIn(),
    schema: { summary: 'The help document tree; filter searches titles and bodies (matches keep their parents)', querystring: ZHelpTreeQuery, response: { 200: ZHelpDocumentTree } },
    handler: (req) => documentTree(app.db, req.query.filter || undefined),
  });

  app.get(`${base}/by-key/:key`, {
    config: signedIn(),
    schema: { summary: 'The document a page links to by its key, with sanitised HTML', params: ZHelpKeyParam, response: { 200: ZHelpDocument } },
    handler: (req) => getDocumentByKey(app.db, req.params.key, req.ctx.acceptLanguage),
  });

  app.get(`${base}/:id`, {
    config: signedIn(),
    schema: { summary: 'One document: Markdown and sanitised HTML', params: ZIdParam, response: { 200: ZHelpDocument } },
    handler: (req) => getDocument(app.db, req.params.id, req.ctx.acceptLanguage),
  });

  app.post(base, {
    config: requirePermission(P.HelpManage),
    schema: { summary: 'Create a help document', body: ZHelpDocumentInput, response: { 200: ZHelpDocument } },
    handler: (req) => createDocument(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: requirePermission(P.HelpManage),
    schema: { summary: 'Update (or move) a help document', params: ZIdParam, body: ZHelpDocumentInput, response: { 200: ZHelpDocument } },
    handler: (req) => updateDocument(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: requirePermission(P.HelpManage),
    schema: { summary: 'Delete a document (with sub-documents only when cascade=true)', params: ZIdParam, querystring: ZHelpDeleteQuery, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteDocument(req.ctx, req.params.id, req.query.cascade);
      return reply.status(204).send(null);
    },
  });

  app.post(`${base}/preview`, {
    config: requirePermission(P.HelpManage),
    schema: { summary: 'Render Markdown the way a saved document is rendered (sanitised HTML)', body: ZHelpPreviewInput, response: { 200: ZHelpPreview } },
    handler: async (req) => ({ html: renderMarkdown(req.body.markdown) }),
  });

  app.post(`${base}/images`, {
    config: requirePermission(P.HelpManage),
    bodyLimit: HELP_IMAGE_MAX_BYTES,
    schema: {
      operationId: 'uploadHelpDocumentImage',
      summary: 'Upload an image (the raw file as the body: PNG, JPEG, GIF or WebP, at most 2 MB)',
      response: { 200: ZHelpImage },
    },
    handler: (req) => saveImage(req.ctx, req.body),
  });

  app.get(`${base}/images/:name`, {
    config: signedIn(),
    schema: { summary: 'A help image', params: ZHelpImageParam },
    handler: async (req, reply) => {
      const image = await readImage(req.ctx, req.params.name);
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('content-disposition', 'inline')
        .send(image.content);
    },
  });
}
