/** The book: its Markdown read into chapters and passages, and the glosses. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { sentenceSpans } from './chunk-passages.ts';
export type { Passage } from './chunk-passages.ts';
export { askedFile, foldForMatch } from './asked.ts';
export type { AskedFile } from './asked.ts';
export { GLOSSES_ABOUT, glossFile, textHash } from './glosses.ts';
export type { GlossFile } from './glosses.ts';
export { CorpusError, corpusFromMarkdown, loadCorpus } from './load-corpus.ts';
export type { Corpus } from './load-corpus.ts';
export { bookParagraphs, loadBookReply } from './book-reply.ts';
export { bookRoutes } from './book-routes.ts';
export { passageSet } from './passage-sets.ts';
export type { PassageSet } from './passage-sets.ts';
export { loadParagraphDirectory } from './paragraph-addresses.ts';
export type { ParagraphAddress, ParagraphDirectory } from './paragraph-addresses.ts';
