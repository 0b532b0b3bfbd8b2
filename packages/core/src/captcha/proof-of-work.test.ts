import { createHash } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { describe, expect, it } from 'vitest';
import { solveProofOfWork } from './proof-of-work.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const secret = 'test-secret';

describe('proof of work (the browser solver against altcha-lib challenges)', () => {
  it('finds the counter the server hid, and the server accepts it', async () => {
    for (const counter of [0, 1, 777, 5000]) {
      const challenge = await createChallenge({ algorithm: 'SHA-256', cost: 1, counter, deriveKey, hmacSignatureSecret: secret });
      const solution = solveProofOfWork(challenge.parameters, { sha256 });
      expect(solution?.counter).toBe(counter);
      const result = await verifySolution({ challenge, solution: solution!, deriveKey, hmacSignatureSecret: secret });
      expect(result.verified).toBe(true);
    }
  });

  it('shares the search between workers (start i, step n): exactly one of them finds it', async () => {
    const challenge = await createChallenge({ algorithm: 'SHA-256', cost: 1, counter: 1234, deriveKey, hmacSignatureSecret: secret });
    // Each worker gives up after its second check (8192 counters of its share: past 1234).
    const found = [0, 1, 2].map((start) => {
      let checks = 0;
      return solveProofOfWork(challenge.parameters, { sha256, start, step: 3, shouldStop: () => ++checks > 2 });
    });
    // 1234 = 3·411 + 1: worker 1 finds it.
    expect(found.map((f) => f?.counter ?? null)).toEqual([null, 1234, null]);
  });

  it('gives up when told to', () => {
    expect(solveProofOfWork({ nonce: '00', salt: '00', keyPrefix: 'ffffffffffffffffffffffffffffffff' }, { sha256, shouldStop: () => true })).toBeNull();
  });
});
