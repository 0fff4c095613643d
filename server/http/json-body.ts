import type { FastifyInstance } from 'fastify';
import { utf8Text } from './utf8-body.ts';

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
