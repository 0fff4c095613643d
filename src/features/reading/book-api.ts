import { ApiError } from '../../lib/api/api-error.ts';
import { fetchBookText, keptBookText } from '../offline/index.ts';
import type { Book } from './book.ts';

export const BOOK_KEY = '/book';

/** Whether a reply is the book as the reader's contract has it (parts, each with paragraphs and notes). */
export function isBook(value: unknown): value is Book {
  const book = value as Partial<Book> | null;
  return (
    typeof book?.title === 'string' &&
    Array.isArray(book.parts) &&
    book.parts.every((p) => typeof p?.slug === 'string' && Array.isArray(p.paragraphs) && Array.isArray(p.notes))
  );
}

async function kept(): Promise<Book | null> {
  const book = await keptBookText();
  return isBook(book) ? book : null;
}

/**
 * The book (GET /api/book), or the copy kept with the offline book when the network is off or
 * the server cannot answer; with neither, the server's error.
 */
export async function loadBook(signal: AbortSignal): Promise<Book> {
  // Opened once a visit: chapter to chapter, the reader does not ask again.
  if (opened) return opened;
  const provided = (globalThis as Record<symbol, unknown>)[PROVIDED];
  if (isBook(provided)) return provided;
  opened = await openBook(signal);
  return opened;
}

let opened: Book | undefined;

/** Forgets the book opened this visit (tests open it afresh). */
export function forgetBook(): void {
  opened = undefined;
}

/**
 * The book given to the build's pre-render (scripts/prerender.ts), which has no server to ask.
 * Kept on the global object: the pre-render imports its bundle afresh (a query on its URL), and
 * the pages' chunks import another instance of this module than the one it calls.
 */
export function provideBook(book: Book): void {
  (globalThis as Record<symbol, unknown>)[PROVIDED] = book;
}

const PROVIDED = Symbol.for('alchemy.prerender.book');

async function openBook(signal: AbortSignal): Promise<Book> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    const book = await kept();
    if (book) return book;
  }
  try {
    const book = await fetchBookText(signal);
    if (!isBook(book)) throw new ApiError('network', 'The book cannot be opened: something other than the server answered');
    return book;
  } catch (error) {
    if (signal.aborted || (error instanceof ApiError && !error.retryable)) throw error;
    const book = await kept();
    if (book) return book;
    throw error;
  }
}
