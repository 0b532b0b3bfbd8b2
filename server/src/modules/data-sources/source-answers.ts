/*
 * Answers of saved queries read by other modules (source-rows.ts), kept on this node for the
 * query's cacheSeconds, by source id / query code / request. Saving or deleting a source or one of
 * its queries forgets that source's answers here at once (other nodes keep theirs until they expire).
 */
const answers = new Map<string, { until: number; value: unknown }>();
const MAX_ANSWERS = 2_000;

/** A kept answer that has not expired. */
export function keptAnswer<T>(key: string, now: number): T | null {
  const held = answers.get(key);
  return held && held.until > now ? (held.value as T) : null;
}

/** Keeps an answer until `until` (ms); the expired ones, then the oldest, make room. */
export function keepAnswer(key: string, value: unknown, until: number): void {
  const now = Date.now();
  if (answers.size >= MAX_ANSWERS) for (const [k, v] of answers) if (v.until <= now || answers.size >= MAX_ANSWERS) answers.delete(k);
  answers.set(key, { until, value });
}

/** Forgets the kept answers of a source's queries. */
export function forgetSourceAnswers(sourceId: string): void {
  for (const key of answers.keys()) if (key.startsWith(`${sourceId}/`)) answers.delete(key);
}
