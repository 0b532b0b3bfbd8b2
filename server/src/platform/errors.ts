import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { replaceIllFormedText } from '@tessera/core/contracts/text';
import { recordAudit } from './audit.ts';
import { localizeCoreMessage } from '@tessera/core/messages/core-messages';
import { requestCulture, translate, type Culture, type MessageKey } from './messages.ts';
import { localizeIssueMessage } from './validation-messages.ts';

export interface ValidationErrorItem {
  message: string;
  members: string[];
}

/** A failure the caller can act on; mapped to `{ error: { code, message, details, validationErrors } }`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly messageKey: MessageKey | null,
    readonly options: {
      message?: string;
      params?: Record<string, string | number>;
      details?: unknown;
      validationErrors?: ValidationErrorItem[];
    } = {},
  ) {
    super(options.message ?? code);
  }
}

export const notFound = (details?: unknown) => new AppError(404, 'NotFound', 'error.notFound', { details });
export const forbidden = (details?: unknown) => new AppError(403, 'Forbidden', 'error.forbidden', { details });
export const unauthorized = () => new AppError(401, 'Unauthorized', 'error.unauthorized');
export const conflict = (details?: unknown) => new AppError(409, 'Conflict', 'error.conflict', { details });
/** A rule violation found by a service (before anything is written). */
export const invalid = (message: string, members: string[] = []) =>
  new AppError(400, 'ValidationError', null, { message, validationErrors: [{ message, members }] });

function body(code: string, message: string, details: unknown = null, validationErrors: ValidationErrorItem[] | null = null) {
  return { error: { code, message, details, validationErrors } };
}

export function zodIssuesToValidationErrors(issues: { path: PropertyKey[]; message: string; code?: string }[], culture: Culture = 'en-US'): ValidationErrorItem[] {
  return issues.map((issue) => ({ message: localizeIssueMessage(issue, culture), members: [issue.path.map(String).join('.')].filter(Boolean) }));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(async (err: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const culture = requestCulture(request);
    if (err instanceof AppError) {
      if (err.statusCode === 400) await auditValidationFailure(request, err.options.validationErrors ?? []);
      // A core text a service passed on as it was (a filter's, a value's) in the caller's language.
      const message = err.messageKey ? translate(culture, err.messageKey, err.options.params) : localizeCoreMessage(err.options.message ?? err.code, culture);
      const validationErrors = err.options.validationErrors?.map((v) => ({ ...v, message: localizeCoreMessage(v.message, culture) })) ?? null;
      return reply.status(err.statusCode).send(body(err.code, message, err.options.details ?? null, validationErrors));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = (err as FastifyError).validationContext ?? 'body';
      const validationErrors = err.validation.map((v) => ({
        message: localizeIssueMessage({ ...(v.params as Record<string, unknown>), code: v.keyword, message: v.message ?? 'Invalid' }, culture),
        members: [[where, ...v.instancePath.split('/').filter(Boolean)].join('.')],
      }));
      await auditValidationFailure(request, validationErrors);
      return reply.status(400).send(body('ValidationError', translate(culture, 'error.validation'), null, validationErrors));
    }
    if (err instanceof ZodError) {
      const validationErrors = zodIssuesToValidationErrors(err.issues, culture);
      await auditValidationFailure(request, validationErrors);
      return reply.status(400).send(body('ValidationError', translate(culture, 'error.validation'), null, validationErrors));
    }
    const fastifyError = err as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status === 413) return reply.status(413).send(body('PayloadTooLarge', translate(culture, 'error.bodyTooLarge')));
    if (status === 415) return reply.status(415).send(body('UnsupportedMediaType', translate(culture, 'error.unsupportedMediaType')));
    if (status === 429) return reply.status(429).send(body('TooManyRequests', translate(culture, 'error.tooManyRequests')));
    if (status === 400 && fastifyError.code?.startsWith('FST_ERR_CTP')) {
      return reply.status(400).send(
        body('ValidationError', translate(culture, 'error.malformedJson'), null, [
          { message: translate(culture, 'error.malformedJson'), members: ['body'] },
        ]),
      );
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body(fastifyError.code ?? 'BadRequest', fastifyError.message));
    }
    request.log.error({ err }, 'unhandled error');
    // A 5xx never leaks internals to the caller.
    return reply.status(500).send(body('InternalError', translate(culture, 'error.internal')));
  });

  app.setNotFoundHandler((request, reply) => {
    const culture = requestCulture(request);
    return reply
      .status(404)
      .send(body('RouteNotFound', `${translate(culture, 'error.routeNotFound')}: ${request.originalUrl}`));
  });
}

/**
 * Errors Fastify meets before routing (a URL that does not decode, `GET /%c0%ae%c0%ae/x`; a path
 * parameter over the length limit): the product's error shape instead of Fastify's default.
 * No hooks run for these requests, so the answer says `nosniff` itself.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const culture = requestCulture(request);
  const status = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : err.code === 'FST_ERR_BAD_URL' ? 400 : 500;
  const code = status === 500 ? 'InternalError' : 'BadUrl';
  const message = translate(culture, status === 500 ? 'error.internal' : 'error.badUrl');
  if (status === 500) request.log.error({ err }, 'framework error');
  return reply.status(status).header('x-content-type-options', 'nosniff').send(body(code, message));
}

async function auditValidationFailure(request: FastifyRequest, validationErrors: ValidationErrorItem[]) {
  // Members and messages may quote hostile input (a key holding NUL): the audit log stores JSON.
  const quoted = validationErrors.slice(0, 20).map((v) => ({ message: replaceIllFormedText(v.message), members: v.members.map(replaceIllFormedText) }));
  await recordAudit(request.ctx, 'ValidationFailed', {
    details: { route: request.routeOptions.url, method: request.method, validationErrors: quoted },
  });
}
