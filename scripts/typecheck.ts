/**
 * `npm run typecheck`: the three TypeScript programs (the Node side, the web, the browser journeys)
 * checked two at a time — tsc uses one core, the machines this runs on have two. Each program's
 * errors are printed as it finishes; the exit code is non-zero when any program has errors.
 * `npm run typecheck -- web` checks the programs named instead.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const PROGRAMS = process.argv.length > 2 ? process.argv.slice(2) : ['tsconfig.node.json', 'web', 'e2e'];
const AT_ONCE = 2;
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

function check(project: string): Promise<boolean> {
  return new Promise((resolve) => {
    const started = performance.now();
    const tsc = spawn(process.execPath, [TSC, '-p', project], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    tsc.stdout.on('data', (d) => (output += d));
    tsc.stderr.on('data', (d) => (output += d));
    tsc.on('close', (code) => {
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'no errors' : 'errors'} (${((performance.now() - started) / 1000).toFixed(0)} s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...PROGRAMS];
const results: boolean[] = [];
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) results.push(await check(project));
  }),
);
if (results.some((ok) => !ok)) process.exitCode = 1;
