import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (an ambient const enum, so spelled out). */
const ARGON2ID = 2;
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { readSetting } from './settings.ts';

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

export function hashPassword(password: string, cost: HashCost): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

export interface PasswordPolicy {
  minLength: number;
  /** How many of: upper case, lower case, digit, symbol. */
  requiredClasses: number;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 8, requiredClasses: 3 };

/** The setting key of the password policy (system settings page). */
export const PASSWORD_POLICY = 'passwordPolicy';

export async function passwordPolicy(db: Kysely<Database>): Promise<PasswordPolicy> {
  return { ...DEFAULT_PASSWORD_POLICY, ...(await readSetting<Partial<PasswordPolicy>>(db, PASSWORD_POLICY, {})) };
}

export function meetsPolicy(password: string, policy: PasswordPolicy): boolean {
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  return password.length >= policy.minLength && classes >= policy.requiredClasses;
}
