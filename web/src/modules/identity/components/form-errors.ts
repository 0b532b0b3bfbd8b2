import type { FormInstance } from 'antd';
import { ApiError } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';

/**
 * Puts a 400's validationErrors on the form fields they name (`body.userName` or `userName`);
 * anything without a matching field is shown as a toast. Answers whether it handled the error.
 */
export function showFormErrors(form: FormInstance, err: unknown, fields: string[]): boolean {
  if (!(err instanceof ApiError)) return false;
  const placed: { name: string; errors: string[] }[] = [];
  const loose: string[] = [];
  for (const v of err.validationErrors) {
    const member = v.members.map((m) => m.replace(/^body\./, '').split('.')[0]!).find((m) => fields.includes(m));
    if (member) placed.push({ name: member, errors: [v.message] });
    else loose.push(v.message);
  }
  if (placed.length) form.setFields(placed);
  if (loose.length || !placed.length) feedback.message?.error(loose[0] ?? err.message, 3);
  return true;
}

/** `张三` for Chinese, `John Smith` otherwise; the user name when both are empty. */
export function fullName(u: { name: string; surname: string; userName: string }, language: string): string {
  const joined = language.startsWith('zh') ? `${u.surname}${u.name}` : [u.name, u.surname].filter(Boolean).join(' ');
  return joined || u.userName;
}
