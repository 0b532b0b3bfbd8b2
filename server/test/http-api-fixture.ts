import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A small HTTP API for tests of HTTP data sources, on 127.0.0.1 and a port of the system's
 * choosing. Every request is recorded (method, URL, headers, body) before its route answers.
 */

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Route = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

export interface HttpApiFixture {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedRequest[];
  /** The last request whose path starts with `prefix`. */
  last(prefix: string): ReceivedRequest | undefined;
  close(): Promise<void>;
}

export const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

/** Starts the API; `routes` by path prefix, the longest that matches answers (else 404). */
export async function startHttpApi(routes: Record<string, Route>): Promise<HttpApiFixture> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      const path = entry.url.split('?')[0]!;
      const prefix = Object.keys(routes)
        .filter((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))
        .sort((a, b) => b.length - a.length)[0];
      if (prefix === undefined) return json(res, 404, { error: 'no such route' });
      Promise.resolve(routes[prefix]!(entry, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    last: (prefix) => [...received].reverse().find((r) => r.url.startsWith(prefix)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 nobody listens on (one the system just gave out and took back). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
