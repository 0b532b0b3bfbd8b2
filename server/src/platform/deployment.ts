import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../config.ts';

/**
 * How the product meets the network it is deployed on (docs/architecture.md): a LAN over plain HTTP,
 * HTTPS directly or through a proxy, at the root or under a sub-path (`BASE_PATH`).
 */

/** Where a request outside the base path is sent: no route has this URL, so it answers 404. */
const OUTSIDE_BASE_PATH = '/.outside-base-path';

/** Fastify server options for the deployment: trusted proxies, TLS (and HTTP/2), the base path. */
export function transportOptions(config: AppConfig): Partial<FastifyServerOptions> & Record<string, unknown> {
  const options: Record<string, unknown> = { trustProxy: config.trustProxy };
  if (config.tls) {
    const { cert, key, http2 } = config.tls;
    // HTTP/2 keeps HTTP/1.1 clients (old tools, health probes) through ALPN.
    Object.assign(options, http2 ? { http2: true, https: { cert, key, allowHTTP1: true } } : { https: { cert, key } });
  }
  const base = config.basePath;
  if (base) {
    // The proxy passes the prefix through; routes are registered without it.
    options.rewriteUrl = (req: IncomingMessage) => stripBasePath(base, req.url ?? '/');
  }
  return options;
}

export function stripBasePath(base: string, url: string): string {
  if (!url.startsWith(base)) return OUTSIDE_BASE_PATH;
  const rest = url.slice(base.length);
  if (rest === '') return '/';
  if (rest.startsWith('/')) return rest;
  if (rest.startsWith('?')) return `/${rest}`;
  return OUTSIDE_BASE_PATH; // `/erpx` is not under `/erp`
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * HTTPS-only headers only on requests that came over HTTPS (directly, or through a trusted proxy's
 * `X-Forwarded-Proto`): on a plain-HTTP LAN, `upgrade-insecure-requests` would make the browser
 * fetch every asset over https from a server that does not speak it (a blank page), and HSTS
 * would lock the host name out of HTTP for a year. Under a base path, redirects keep the prefix.
 */
export function registerDeploymentHeaders(app: FastifyInstance) {
  const base = app.config.basePath;
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', HSTS);
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string' && !csp.includes('upgrade-insecure-requests')) {
        reply.header('content-security-policy', `${csp.replace(/;?\s*$/, '')}; upgrade-insecure-requests`);
      }
    }
    if (base) {
      const location = reply.getHeader('location');
      if (typeof location === 'string' && location.startsWith('/') && !location.startsWith('//') && !location.startsWith(`${base}/`)) {
        reply.header('location', `${base}${location}`);
      }
    }
  });
  if (base) {
    // `/erp` → `/erp/`: the app's relative asset URLs resolve against the directory.
    app.addHook('onRequest', async (request, reply) => {
      const original = request.originalUrl;
      if (original === base || original.startsWith(`${base}?`)) {
        return reply.redirect(`${base}/${original.slice(base.length)}`, 308);
      }
    });
  }
}

/** Drops `upgrade-insecure-requests` from a CSP (the OpenAPI UI's own policy carries it). */
export const withoutUpgradeInsecureRequests = (csp: string) => csp.replace(/\s*upgrade-insecure-requests;?/g, '').trim();
