import { AppError, type ValidationErrorItem } from './errors.ts';
import { cultureOf, fillParams, type Culture, type TextAudience } from './messages.ts';

/** Every module's text table, as `moduleMessages` met them (for the catalogue's completeness test). */
export const MESSAGE_TABLES: { name: string; texts: Record<Culture, Record<string, string>> }[] = [];

/**
 * A module's server texts from its own zh-CN / en-US table: `text` looks one up in the caller's
 * culture, `translator` binds the culture, `error` builds an AppError with a localized message (a
 * 400 also names the offending members), and `invalid` is the usual 400 validation error — raised
 * before anything is written.
 */
export function moduleMessages<K extends string>(texts: Record<Culture, Record<K, string>>, name = 'module') {
  MESSAGE_TABLES.push({ name, texts });
  const text = (who: TextAudience, key: K, params: Record<string, string | number> = {}): string =>
    fillParams(texts[cultureOf(who)][key], params);
  /** `t(key, params)` in one culture; `t.culture` names it (for texts from elsewhere, such as the core's). */
  const translator = (who: TextAudience) => Object.assign((key: K, params: Record<string, string | number> = {}) => text(who, key, params), { culture: cultureOf(who) });
  const error = (
    who: TextAudience,
    statusCode: number,
    code: string,
    key: K,
    params: Record<string, string | number> = {},
    extra: { members?: string[]; details?: unknown } = {},
  ): AppError => {
    const message = text(who, key, params);
    const validationErrors = statusCode === 400 ? [{ message, members: extra.members ?? [] }] : undefined;
    return new AppError(statusCode, code, null, { message, details: extra.details, validationErrors });
  };
  const invalid = (who: TextAudience, key: K, members: string[], params: Record<string, string | number> = {}): AppError =>
    error(who, 400, 'ValidationError', key, params, { members });
  return { text, translator, error, invalid };
}

/** A 400 carrying several validation errors at once (the first one's text as the message). */
export function validationFailure(message: string, validationErrors: ValidationErrorItem[], details?: unknown): AppError {
  return new AppError(400, 'ValidationError', null, { message, validationErrors, details });
}
