/**
 * The book as the reader reads it: GET /api/book (the reader's contract, docs/app.md "Reading").
 * A paragraph's address is `<part>#p<N>`, N counted from 1 across the part's sections.
 */
export type { BookReply as Book, BookPart, BookParagraph } from '../../../contract/api-schemas.ts';
