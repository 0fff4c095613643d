import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BookReply } from '../../../contract/api-schemas.ts';
import { loadBookReply } from './book-reply.ts';

export interface BookRoutesOptions {
  /** The book's Markdown (CORPUS_FILE), pages.tsv beside it. */
  file: string;
}

type Encoding = 'br' | 'gzip' | 'identity';
const encodings = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'] });

/** A day: the book changes only with a new version of the service, and the ETag revalidates it in a request's time. */
export const BOOK_CACHE_CONTROL = 'public, max-age=86400';

/** An If-None-Match header's tags (weak ones compared as strong: RFC 9110's weak comparison). */
function tagsOf(header: string | undefined): string[] {
  return (header ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, '')).filter(Boolean);
}

/**
 * GET /book: the whole book to read (contract/api-schemas.ts BookReply), public and the same for
 * every caller. Made once as the app starts, with its compressed forms and a strong ETag each; a
 * request whose If-None-Match holds the current tag gets a 304 and no body.
 */
export const bookRoutes: FastifyPluginAsyncTypebox<BookRoutesOptions> = async (app, options) => {
  const json = JSON.stringify(await loadBookReply(options.file));
  const identity = Buffer.from(json, 'utf8');
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, 32);
  const bodies: Record<Encoding, { bytes: Buffer; etag: string }> = {
    identity: { bytes: identity, etag: `"${hash}"` },
    gzip: { bytes: gzipSync(identity, { level: 9 }), etag: `"${hash}-gzip"` },
    br: { bytes: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }), etag: `"${hash}-br"` },
  };
  const ours = new Set(Object.values(bodies).map((b) => b.etag));

  app.get('/book', { schema: { response: { 200: BookReply, 304: { type: 'null' } } } }, async (request, reply) => {
    const header = request.headers['accept-encoding'];
    const encoding: Encoding = (header ? encodings.negotiate(header) : null) ?? 'identity';
    const { bytes, etag } = bodies[encoding];
    reply.header('etag', etag).header('cache-control', BOOK_CACHE_CONTROL).header('vary', 'accept-encoding');
    const tags = tagsOf(request.headers['if-none-match']);
    if (tags.includes('*') || tags.some((tag) => ours.has(tag))) return reply.code(304).send(null);
    reply.type('application/json; charset=utf-8').header('content-length', bytes.length);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    // Bytes made once, by JSON.stringify of the contract's type: sent as they are.
    return reply.send(bytes as unknown as BookReply);
  });
};
