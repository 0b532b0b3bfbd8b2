import type { FormInstance } from 'antd';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';

/** Shows a 400's validation errors at the form fields they name (`body.key` → `key`); true when shown. */
export function showFieldErrors(form: FormInstance, err: unknown, fields: string[]): boolean {
  if (!(err instanceof ApiError) || err.status !== 400) return false;
  const mapped = mapValidationErrors(err.validationErrors, { fields });
  if (!mapped.fields.length) return false;
  setFieldErrors(form, mapped.fields);
  return true;
}
