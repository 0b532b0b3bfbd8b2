import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  ZDocNo,
  ZDocumentNumberRule,
  ZDocumentNumberRuleInput,
  ZDocumentNumberRuleList,
  ZDocumentNumberRuleQuery,
  ZPreviewDocumentNumbersInput,
  ZPreviewDocumentNumbersResult,
  ZReservationList,
  ZReservationQuery,
  ZRuleRefParam,
  ZVoidDocNoInput,
} from '@tessera/core/contracts/document-numbers';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import { reserveDocumentNumber, voidReservedNumber } from './document-number-issuer.ts';
import './document-numbers.permissions.ts';
import { createRule, deleteRule, getRule, listReservations, listRules, previewNumbers, updateRule } from './document-numbers.service.ts';

export async function documentNumberRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/document-number';

  app.get(base, {
    config: requirePermission(P.DocumentNumbers),
    schema: { summary: 'Document-number rules, paged: Filter (code, name), Sorting code|name|creationTime', querystring: ZDocumentNumberRuleQuery, response: { 200: ZDocumentNumberRuleList } },
    handler: (req) => listRules(req.ctx, req.query),
  });

  app.post(`${base}/preview`, {
    config: requirePermission(P.DocumentNumbers),
    schema: {
      summary: 'The next numbers of a rule being edited, without consuming any (a saved rule continues from its counter)',
      body: ZPreviewDocumentNumbersInput,
      response: { 200: ZPreviewDocumentNumbersResult },
    },
    handler: (req) => previewNumbers(req.ctx, req.body),
  });

  app.get(`${base}/:id`, {
    config: requirePermission(P.DocumentNumbers),
    schema: { summary: 'One rule, by id or code', params: ZRuleRefParam, response: { 200: ZDocumentNumberRule } },
    handler: (req) => getRule(req.ctx, req.params.id),
  });

  app.post(base, {
    config: requirePermission(P.DocumentNumbersCreate),
    schema: { summary: 'Create a rule', body: ZDocumentNumberRuleInput, response: { 200: ZDocumentNumberRule } },
    handler: (req) => createRule(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: requirePermission(P.DocumentNumbersUpdate),
    schema: { summary: 'Update a rule (reset period and serial start/step are fixed once numbers were issued)', params: ZIdParam, body: ZDocumentNumberRuleInput, response: { 200: ZDocumentNumberRule } },
    handler: (req) => updateRule(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: requirePermission(P.DocumentNumbersDelete),
    schema: { summary: 'Delete a rule with its counters and reservations', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteRule(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  // spec §4 docNoOccasion 1: the number shown when a record is created; reserved until the save uses it.
  app.get(`${base}/:id/doc-no`, {
    config: requirePermission(P.DocumentNumbersIssue),
    schema: { summary: 'Reserve the next number of a rule (by id or code) for a record being created', params: ZRuleRefParam, response: { 200: ZDocNo } },
    handler: async (req) => {
      const issued = await reserveDocumentNumber(app.db, req.params.id, { userId: req.user?.id ?? null, culture: req.ctx });
      return { docNo: issued.docNo };
    },
  });

  app.post(`${base}/:id/doc-no/void`, {
    config: requirePermission(P.DocumentNumbersIssue),
    schema: { summary: 'Void a reserved number whose record was abandoned (its holder, or a rule manager)', params: ZRuleRefParam, body: ZVoidDocNoInput, response: { 204: z.null() } },
    handler: async (req, reply) => {
      const user = req.user!;
      await voidReservedNumber(app.db, req.params.id, req.body.docNo, {
        userId: user.id,
        mayVoidAny: user.isAdmin || user.access.has(P.DocumentNumbersUpdate),
        culture: req,
      });
      return reply.status(204).send(null);
    },
  });

  app.get(`${base}/:id/reservations`, {
    config: requirePermission(P.DocumentNumbers),
    schema: { summary: 'Numbers fetched for new records and what became of them (reserved, used, void), newest first', params: ZRuleRefParam, querystring: ZReservationQuery, response: { 200: ZReservationList } },
    handler: (req) => listReservations(req.ctx, req.params.id, req.query),
  });
}
