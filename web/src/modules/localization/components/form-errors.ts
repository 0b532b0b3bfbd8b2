import type { FormInstance } from 'antd';
import { ApiError } from '../../../shared/api/client.ts';

/** Shows a 400's validation errors at the form fields they name (`body.key` → `key`); true when shown. */
export function showFieldErrors(form: FormInstance, err: unknown, fields: string[]): boolean {
  if (!(err instanceof ApiError) || err.status !== 400) return false;
  const byField = new Map<string, string[]>();
  for (const v of err.validationErrors) {
    const member = (v.members[0] ?? '').replace(/^body\./, '').split('.')[0] ?? '';
    if (fields.includes(member)) byField.set(member, [...(byField.get(member) ?? []), v.message]);
  }
  if (!byField.size) return false;
  form.setFields([...byField].map(([name, errors]) => ({ name, errors })));
  return true;
}
