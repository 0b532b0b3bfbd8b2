import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { BYE } from '../../platform/live-signals.ts';

/** A stream lives this long, then ends; the browser connects again with the token it holds then (a signed-out session stops getting signals). */
const MAX_AGE_MS = 5 * 60_000;
/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

/**
 * `GET /api/app/notifications/live`: server-sent events for the signed-in user — `todo` when their
 * tasks changed, `notifications` when their notifications did, `resync` when signals may have been
 * missed — each a cue to read the counts again through the ordinary API (platform/live-signals.ts).
 * Written on the raw response: no compression (a compressed stream would sit in the encoder's
 * buffer) and no proxy buffering (`X-Accel-Buffering: no`).
 */
export function streamLiveSignals(req: FastifyRequest, reply: FastifyReply): void {
  const user = req.ctx.user;
  if (!user) return void reply.status(401).send();
  // Only for a client that asked for a stream: any other caller (a link, a script, the API's fuzzer)
  // gets a plain answer instead of a connection held open for minutes.
  if (!/\btext\/event-stream\b/i.test(req.headers.accept ?? '')) {
    throw new AppError(406, 'NotAcceptable', null, { message: 'This stream answers Accept: text/event-stream' });
  }
  reply.hijack();
  const res = reply.raw;
  // The headers hooks set (security headers, request id) go out with the stream's own.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  let open = true;
  const write = (chunk: string) => {
    if (open) res.write(chunk);
  };
  const end = () => {
    if (!open) return;
    open = false;
    unsubscribe();
    clearInterval(heartbeat);
    clearTimeout(maxAge);
    res.end();
  };
  const unsubscribe = req.server.live.subscribe(user.id, (topic) => (topic === BYE ? end() : write(`event: ${topic}\ndata: {}\n\n`)));
  const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
  const maxAge = setTimeout(end, MAX_AGE_MS);
  req.raw.on('close', end);
  // The browser's reconnection delay, and a first event: the client knows the stream is open and reads the counts once.
  write('retry: 3000\nevent: ready\ndata: {}\n\n');
}
