import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findTextIssues, MAX_INPUT_DEPTH, replaceIllFormedText, type TextIssue } from '@tessera/core/contracts/text';
import { AppError, type ValidationErrorItem } from './errors.ts';
import { requestCulture, translate } from './messages.ts';

/*
 * The backstop of the text rule (issue 27). The contracts refuse ill-formed text (NUL, unpaired
 * surrogates) field by field; this guard makes sure none reaches a service anyway, whatever the
 * route's schema: every string and key of the body, query and path parameters as received.
 *
 * - preValidation: input nested more than MAX_INPUT_DEPTH levels is a 400 before any schema or
 *   recursive code reads it (a 10,000-deep JSON must not overflow the stack).
 * - preHandler: ill-formed text that the route's schema let through (or stripped, such as an
 *   unknown key) is a 400 naming it. Schemas answer first, with their own messages.
 */

type Where = 'body' | 'querystring' | 'params';

declare module 'fastify' {
  interface FastifyRequest {
    /** Ill-formed text found in the input as received, reported unless the schema refused first. */
    illFormedText: ValidationErrorItem[] | null;
  }
}

const member = (where: Where, issue: TextIssue) => [where, ...issue.path.map((p) => replaceIllFormedText(String(p)))].join('.');

function inputsOf(request: FastifyRequest): [Where, unknown][] {
  return [
    ['body', request.body],
    ['querystring', request.query],
    ['params', request.params],
  ];
}

export function registerInputGuard(app: FastifyInstance) {
  app.decorateRequest('illFormedText', null);
  app.addHook('preValidation', async (request) => {
    const culture = requestCulture(request);
    const text: ValidationErrorItem[] = [];
    for (const [where, value] of inputsOf(request)) {
      if (value === undefined || value === null) continue;
      const issues = findTextIssues(value, { maxDepth: MAX_INPUT_DEPTH, limit: 20 });
      const deep = issues.find((i) => i.kind === 'depth');
      if (deep) {
        const message = translate(culture, 'error.tooDeep', { max: MAX_INPUT_DEPTH });
        throw new AppError(400, 'ValidationError', 'error.validation', { validationErrors: [{ message, members: [member(where, deep)] }] });
      }
      for (const issue of issues) text.push({ message: translate(culture, 'error.illFormedText'), members: [member(where, issue)] });
    }
    request.illFormedText = text.length ? text : null;
  });
  app.addHook('preHandler', async (request) => {
    if (request.illFormedText) throw new AppError(400, 'ValidationError', 'error.validation', { validationErrors: request.illFormedText });
  });
}
