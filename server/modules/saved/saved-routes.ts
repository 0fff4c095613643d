import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SavedDeleteQuery, SavedList, SavedParams, SavedPassage, SavedPut } from '../../../contract/api-schemas.ts';
import { callerOf, describeWait } from '../auth/index.ts';
import { loadParagraphDirectory, type ParagraphDirectory } from '../book/index.ts';
import { HttpError } from '../../platform/http/errors.ts';
import { countHit } from '../../platform/limits/rate-limit-counts.ts';
import { windowVerdict } from '../../platform/limits/window-verdict.ts';
import { listSaved, putSaved, type SavedRow } from './saved-sql.ts';


export interface SavedRoutesOptions {
  /** The book whose paragraphs may be saved (CORPUS_FILE). */
  bookFile: string;
}

const WRITE_WINDOW_MS = 60_000;
const EXCERPT_CHARS = 240;
/** C0 controls but tab and line breaks, DEL, and C1 controls: nothing a reader types in a note. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** A paragraph's opening words, cut at a word's end. */
export function excerptOf(text: string): string {
  if (text.length <= EXCERPT_CHARS) return text;
  const cut = text.slice(0, EXCERPT_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), EXCERPT_CHARS / 2)).trimEnd()}…`;
}

function shown(directory: ParagraphDirectory, row: SavedRow): SavedPassage {
  const paragraph = directory.paragraphs.get(row.anchor);
  return { ...row, chapter: paragraph?.heading ?? '', excerpt: paragraph ? excerptOf(paragraph.text) : '' };
}

/** The paragraph a PUT names, by its address or by a search result's passage id; a 400 otherwise. */
function anchorOf(directory: ParagraphDirectory, body: SavedPut): string {
  if (body.anchor !== undefined) {
    if (!directory.paragraphs.has(body.anchor)) throw new HttpError(400, `anchor ${body.anchor} is no paragraph of the book (e.g. ch4#p12)`);
    return body.anchor;
  }
  if (body.passage !== undefined) {
    const anchor = directory.passageAnchors.get(body.passage);
    if (!anchor) throw new HttpError(400, `passage ${body.passage} is no passage of the book`);
    return anchor;
  }
  throw new HttpError(400, 'anchor is required: the paragraph to save (e.g. ch4#p12)');
}

/**
 * GET /saved, PUT /saved/:id, DELETE /saved/:id: a reader's saved passages. The reader is the
 * token's, never a field of the body; another reader's id is another row. Writes count against
 * the reader's writes a minute (VOTE_RATE_LIMIT's number, shared by every instance on the store).
 */
export const savedRoutes: FastifyPluginAsyncTypebox<SavedRoutesOptions> = async (app, options) => {
  const directory = await loadParagraphDirectory(options.bookFile);
  app.addHook('onRequest', app.authenticate);

  const write = async (username: string, row: SavedRow): Promise<SavedPassage> => {
    const limit = app.settings.voteRateLimit;
    if (limit <= 0) return shown(directory, await putSaved(app.db, username, row));
    const now = app.settings.now();
    return app.db.transaction(async (tx) => {
      const stored = await putSaved(tx, username, row);
      const { windowStartMs, hits } = await countHit(tx, `saved:${username}`, now, WRITE_WINDOW_MS);
      const verdict = windowVerdict(hits, limit, windowStartMs, WRITE_WINDOW_MS, now);
      if (!verdict.allowed) {
        throw new HttpError(429, `Too many changes at once. ${describeWait(verdict.retryAfterSeconds)}`, { 'retry-after': String(verdict.retryAfterSeconds) });
      }
      return shown(directory, stored);
    });
  };

  app.get('/saved', { schema: { response: { 200: SavedList } } }, async (request) =>
    (await listSaved(app.db, callerOf(request).username)).map((row) => shown(directory, row)),
  );

  app.put('/saved/:id', { schema: { params: SavedParams, body: SavedPut, response: { 200: SavedPassage } } }, async (request) => {
    const { body } = request;
    if (CONTROL.test(body.note)) throw new HttpError(400, 'note must not contain control characters');
    const anchor = anchorOf(directory, body);
    return write(callerOf(request).username, {
      id: request.params.id.toLowerCase(),
      anchor,
      note: body.note,
      saved_at: body.saved_at,
      updated_at: body.updated_at,
      removed: false,
    });
  });

  app.delete('/saved/:id', { schema: { params: SavedParams, querystring: SavedDeleteQuery, response: { 200: SavedPassage } } }, async (request) =>
    write(callerOf(request).username, {
      id: request.params.id.toLowerCase(),
      anchor: '',
      note: '',
      saved_at: request.query.updated_at,
      updated_at: request.query.updated_at,
      removed: true,
    }),
  );
};
