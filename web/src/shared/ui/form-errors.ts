import type { FormInstance } from 'antd';
import { ApiError } from '../api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../api/validation-errors.ts';
import { feedback } from './feedback.tsx';

/**
 * Puts an API error's validationErrors on the form fields they name (`body.userName` or `userName`);
 * anything without a matching field is shown as a toast. Answers whether it handled the error.
 */
export function showFormErrors(form: FormInstance, err: unknown, fields: string[]): boolean {
  if (!(err instanceof ApiError)) return false;
  const mapped = mapValidationErrors(err.validationErrors, { fields });
  setFieldErrors(form, mapped.fields);
  if (mapped.general.length || !mapped.fields.length) feedback.message?.error(mapped.general[0] ?? err.message, 3);
  return true;
}
