import type { TCaptcha } from '@tessera/core/contracts/auth';
import type { ProofOfWorkSolution } from '@tessera/core/captcha/proof-of-work';
import type { WorkRequest } from './proof-of-work.worker.ts';

const TIMEOUT_MS = 90_000;

/**
 * Solves a challenge with up to 4 workers, each searching its own share of the counters; the first
 * answer wins and the others stop. Returns ALTCHA's payload (base64 JSON) for `captcha`.
 */
export async function solveCaptcha(challenge: TCaptcha, signal?: AbortSignal): Promise<string> {
  const count = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  const workers = Array.from({ length: count }, () => new Worker(new URL('./proof-of-work.worker.ts', import.meta.url), { type: 'module' }));
  const stop = () => workers.forEach((w) => w.terminate());
  signal?.addEventListener('abort', stop);
  try {
    const started = performance.now();
    const solution = await new Promise<ProofOfWorkSolution>((resolve, reject) => {
      let unsolved = 0;
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      workers.forEach((worker, start) => {
        worker.onerror = (e) => reject(new Error(e.message || 'worker failed'));
        worker.onmessage = (e: MessageEvent<ProofOfWorkSolution | null>) => {
          if (e.data) resolve(e.data);
          else if (++unsolved === count) reject(new Error('not solved in time'));
        };
        worker.postMessage({ parameters: challenge.parameters, start, step: count, timeoutMs: TIMEOUT_MS } satisfies WorkRequest);
      });
    });
    const payload = { challenge, solution: { ...solution, time: Math.round(performance.now() - started) } };
    return btoa(JSON.stringify(payload));
  } finally {
    stop();
  }
}
