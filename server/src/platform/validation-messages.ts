/**
 * Validation texts in the caller's language. Zod's own messages ("Invalid input: expected number,
 * received string", "Too small: …") come in English; for a Chinese caller the issue is told again
 * through zod's zh-CN locale. A message the schema wrote itself (a contract's rule, a core text)
 * goes through the core's catalogue (`localizeCoreMessage`).
 */
import { localizeCoreMessage } from '@tessera/core/messages/core-messages';
import { z } from 'zod';
import type { Culture } from './messages.ts';

/** What an issue carries once zod reported it (fastify-type-provider-zod spreads the rest as params). */
export interface IssueLike {
  readonly code?: string;
  readonly message: string;
}

const english = z.locales.en().localeError;
const chinese = z.locales.zhCN().localeError;

type LocaleIssue = Parameters<typeof english>[0];
const textOf = (answer: ReturnType<typeof english>): string | undefined => (typeof answer === 'string' ? answer : answer?.message);

// A reported issue no longer holds its input; its English message names the type it received.
const SAMPLE_INPUT: Record<string, unknown> = { string: '', number: 0, boolean: false, undefined: undefined, null: null, object: {}, array: [], bigint: 0n, nan: Number.NaN, date: new Date(0), symbol: Symbol('x'), function: () => undefined };

/** The issue as zod's locales read it, with a stand-in input of the type it received. */
function localeIssue(issue: IssueLike): LocaleIssue {
  const received = issue.code === 'invalid_type' ? /received (\w+)$/.exec(issue.message)?.[1]?.toLowerCase() : undefined;
  const input = received && received in SAMPLE_INPUT ? SAMPLE_INPUT[received] : (issue as { input?: unknown }).input;
  return { ...issue, input } as unknown as LocaleIssue;
}

/** The issue's message for the culture: zod's default in Chinese, a schema's own text through the core catalogue. */
export function localizeIssueMessage(issue: IssueLike, culture: Culture): string {
  if (culture === 'en-US' || !issue.code) return localizeCoreMessage(issue.message, culture);
  try {
    const asIssue = localeIssue(issue);
    if (textOf(english(asIssue)) === issue.message) return textOf(chinese(asIssue)) ?? issue.message;
  } catch {
    // An issue shape the locale does not know: keep the message.
  }
  return localizeCoreMessage(issue.message, culture);
}
