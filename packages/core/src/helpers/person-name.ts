/**
 * A person's display name, formed once for the server and the web: the header, the console's
 * greeting, record histories, pickers and the audit log all show the same full name.
 *
 * The order follows the culture: Chinese, Japanese, Korean (and Vietnamese, Khmer, Hungarian) put the
 * surname first, the others the given name first, with a space between (Ann Lee; Lee Ann in Chinese).
 * A name written in CJK script takes no space and keeps its own order in every culture: 张三 is 张三
 * in an English interface too, never "三 张". With one part empty the other stands alone; with both
 * empty the user name (account) stands in.
 */

export interface PersonNameParts {
  /** The given name (ABP's `name`). */
  readonly name?: string | null;
  readonly surname?: string | null;
  /** The account name, shown when the person has no name. */
  readonly userName?: string | null;
}

// Family name first: Chinese, Japanese, Korean, Vietnamese, Khmer, Hungarian.
const SURNAME_FIRST = /^(zh|ja|ko|vi|km|hu)\b/i;
// Han, Hiragana, Katakana, Hangul and the CJK punctuation/middle dots names are written with.
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u00b7\u30fb\u3005]+$/u;

/** True when the culture (a language tag such as zh-CN, en-US, ja) writes the surname first. */
export function isSurnameFirst(culture: string): boolean {
  return SURNAME_FIRST.test(culture.trim());
}

/** The full name of a person for a culture (a language tag), e.g. 张三 (zh-CN), Ann Lee (en-US). */
export function personDisplayName(person: PersonNameParts, culture: string): string {
  const given = (person.name ?? '').trim();
  const surname = (person.surname ?? '').trim();
  if (!given && !surname) return (person.userName ?? '').trim();
  if (!given || !surname) return given || surname;
  const cjk = CJK.test(given) && CJK.test(surname);
  if (cjk) return surname + given;
  return isSurnameFirst(culture) ? `${surname} ${given}` : `${given} ${surname}`;
}
