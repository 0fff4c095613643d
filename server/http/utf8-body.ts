import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body's text, read as UTF-8 and only so: a body labelled with another charset is refused (415,
 * naming `mediaType`), and bytes that are not UTF-8 are refused (400), rather than each taken as
 * U+FFFD and stored or compared as if that had been sent.
 */
export function utf8Text(request: FastifyRequest, body: Buffer, mediaType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `Content-Type must be ${mediaType} in UTF-8`);
  }
  try {
    return utf8.decode(body);
  } catch {
    throw new HttpError(400, 'Request body is not valid UTF-8');
  }
}

/**
 * No body is taken compressed (no client of ours sends one): a `Content-Encoding` other than
 * identity gets 415 (RFC 9110, 15.5.16), where it was read as if plain: a gzip body then failed as
 * bad JSON, and a plain one labelled gzip was taken.
 */
export function refuseEncodedBodies(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding && coding !== 'identity') throw new HttpError(415, 'Content-Encoding is not supported: send the body uncompressed');
  });
}
