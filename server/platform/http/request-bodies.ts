import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body's text, read as UTF-8 and only so: a body labelled with another charset is refused (415,
 * naming `mediaType`), and bytes that are not UTF-8 are refused (400), rather than each taken as
 * U+FFFD and stored or compared as if that had been sent. Nor is a body taken compressed (no
 * client of ours sends one): a `Content-Encoding` other than identity is refused (415, RFC 9110
 * 15.5.16), where it was read as if plain, so a plain body labelled gzip was taken.
 */
export function utf8Text(request: FastifyRequest, body: Buffer, mediaType: string): string {
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity') throw new HttpError(415, 'Content-Encoding is not supported: send the body uncompressed');
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
 * JSON bodies are read as UTF-8 (RFC 8259), strictly: Fastify's own parser decoded whatever it
 * got as UTF-8, so a body labelled `charset=iso-8859-1` had "café" stored as "caf\uFFFD", and
 * bytes that are not UTF-8 at all (a lone surrogate sent raw) were stored as U+FFFD, each with a
 * 200. Now the first gets a 415 and the second a 400, and nothing is stored. The JSON itself is
 * parsed by Fastify's parser, with its handling of `__proto__` and `constructor` keys.
 */
export function readJsonAsUtf8(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8Text(request, body as Buffer, 'application/json');
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
