/// <reference lib="webworker" />
import { sha256 } from '@noble/hashes/sha2.js';
import { solveProofOfWork, type ProofOfWorkParameters } from '@tessera/core/captcha/proof-of-work';

/**
 * One share of the registration proof of work. A pure-JS SHA-256 (noble): `crypto.subtle` is
 * missing outside secure contexts (the product runs over plain http on office LANs), and a
 * synchronous hash is faster here than an awaited digest per counter anyway. The worker is its
 * own file served from 'self', so the CSP (`script-src 'self'`, no blob:) allows it.
 */
export interface WorkRequest {
  parameters: ProofOfWorkParameters;
  start: number;
  step: number;
  /** Give up after this many milliseconds. */
  timeoutMs: number;
}

self.onmessage = (event: MessageEvent<WorkRequest>) => {
  const { parameters, start, step, timeoutMs } = event.data;
  const deadline = Date.now() + timeoutMs;
  const solution = solveProofOfWork(parameters, { sha256, start, step, shouldStop: () => Date.now() > deadline });
  self.postMessage(solution);
};
