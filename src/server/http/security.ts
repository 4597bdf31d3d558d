import cors from '@fastify/cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Security headers for every response. The CSP allows only our own origin; style-src needs
 * 'unsafe-inline' because Radix positions popovers with inline style attributes.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const isHttps = config.publicUrl.startsWith('https://');
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", ...websocketOrigins(config.publicUrl)],
        'worker-src': ["'self'", 'blob:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(isHttps ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // HSTS only means something behind TLS; on plain http it would just be ignored noise.
    strictTransportSecurity: isHttps ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  // Same-origin by default: the SPA is served from this server. Extra origins only when configured.
  if (config.http.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: [...config.http.corsOrigins],
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'],
      allowedHeaders: [
        'apikey',
        'authorization',
        'content-type',
        'x-client-info',
        'x-supabase-api-version',
        'tus-resumable',
        'upload-length',
        'upload-offset',
        'upload-metadata',
      ],
      exposedHeaders: ['X-Supabase-Api-Version', 'X-Total-Count', 'Link', 'Location', 'Upload-Offset', 'Upload-Length'],
      credentials: true,
      maxAge: 600,
    });
  }
}

function websocketOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  return [`${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`];
}

/**
 * Helmet's headers, worked out once: they hold nothing of the request (no nonces), so building
 * helmet's middleware again for every request, as @fastify/helmet does, was work for nothing on
 * every answer.
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}
