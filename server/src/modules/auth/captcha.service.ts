import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import svgCaptcha from 'svg-captcha';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/schema.ts';

export const CAPTCHA_TTL_SECONDS = 300;

const digest = (id: string, answer: string) => createHash('sha256').update(`${id}:${answer.trim().toLowerCase()}`).digest('hex');

export interface CaptchaChallenge {
  /** The expected answer. */
  text: string;
  /** The SVG image shown to the user. */
  data: string;
}
export type CaptchaFactory = () => CaptchaChallenge;

export const mathCaptcha: CaptchaFactory = () =>
  svgCaptcha.createMathExpr({ mathMin: 1, mathMax: 20, mathOperator: '+-', noise: 2, width: 120, height: 40 });

/** An arithmetic image captcha; only a salted hash of the answer is stored. */
export async function issueCaptcha(db: Kysely<Database>, create: CaptchaFactory = mathCaptcha) {
  const challenge = create();
  const captchaId = uuidv7();
  await db
    .insertInto('captchas')
    .values({ id: captchaId, answer_hash: digest(captchaId, challenge.text), expires_at: new Date(Date.now() + CAPTCHA_TTL_SECONDS * 1000) })
    .execute();
  return { captchaId, svg: challenge.data, expiresIn: CAPTCHA_TTL_SECONDS };
}

/** Single use: the row is consumed whether or not the answer is right. */
export async function consumeCaptcha(db: Kysely<Database>, captchaId: string, answer: string): Promise<boolean> {
  const row = await db
    .updateTable('captchas')
    .set({ used_at: new Date() })
    .where('id', '=', captchaId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('answer_hash')
    .executeTakeFirst();
  return !!row && row.answer_hash === digest(captchaId, answer);
}
