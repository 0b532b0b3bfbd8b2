import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Starts bench/lib/bench-server.ts (or another script) in its own process, so load and server do not share a core. */
export async function startServer(script = 'bench/lib/bench-server.ts', env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(name: string, options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ duration: 10, connections: 50, ...options });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function table(rows: LoadResult[], baseline?: LoadResult): string {
  const lines = ['| case | req/s | p50 ms | p99 ms | non-2xx | vs baseline |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    const ratio = baseline ? `${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)}%` : '';
    lines.push(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${ratio} |`);
  }
  return lines.join('\n');
}
