import { ApiError, errorText } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';

/**
 * A refused publish: the server checks the layout against the bound page and answers 400 with one
 * validation error per problem (fields, views, columns, formulas the page lacks); several are
 * listed in a dialog, one as a message.
 */
export function showPublishFailure(err: unknown, texts: { title: string; ok: string; stale: string }) {
  if (err instanceof ApiError && err.status === 409) return void feedback.message?.error(texts.stale);
  const problems = err instanceof ApiError ? err.validationErrors : [];
  if (problems.length <= 1) return void feedback.message?.error(errorText(err));
  feedback.modal?.error({
    title: texts.title,
    content: (
      <ul data-testid="print-publish-problems">
        {problems.map((p, i) => (
          <li key={i}>{p.message}</li>
        ))}
      </ul>
    ),
    okText: texts.ok,
  });
}
