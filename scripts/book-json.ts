/**
 * GET /api/book's reply, as the server makes it from the corpus (server/modules/book): the build's
 * pre-render reads the titles and openings of /read pages from it, and the client's tests read it
 * as the book the reader shows.
 */
import path from 'node:path';
import type { BookReply } from '../contract/api-schemas.ts';
import { loadBookReply } from '../server/modules/book/index.ts';

export function corpusBook(root = process.cwd()): Promise<BookReply> {
  return loadBookReply(path.join(root, 'corpus', 'alchemy-of-happiness.md'));
}
