import type { LexiconData } from '../search/lexicon.ts';
import type { SentenceVectors } from '../search/passage-index.ts';
import type { QueryRecipe, RestoredModel } from '../search/query-models.ts';
import type { BookPassage } from '../search/rank.ts';
import type { ModelIdentity } from '../search/types.ts';
import type { WordVectors } from '../search/word-vectors.ts';
import { CodedRows, PackError, QuantisedRows, type PackValue } from './pack-codec.ts';

/**
 * The offline pack: all a device needs to answer a question as the server would, with the code the
 * server runs (common/search). Built by the server from the fitted state it searches with
 * (server/modules/offline-pack/pack-builder.ts), read by the app's search worker, and by the parity test.
 *
 * - the book's passages (id, text, chapter, section, place, and the paragraphs each holds: a
 *   result's `anchor` and `mark` are computed from them, as the server does; format 2, and format
 *   3 carries the index's vectors in its 8-bit codes);
 * - per model: its name and version, its recipe (which model, fitted with which settings), its
 *   fitted state (vocabulary, term matrices, the lexicon of WordNet relatives and thesaurus
 *   entries it was fitted with), and its passage and sentence vectors with their sentences' spans;
 * - the general English word vectors the models read a query with (GloVe, as the server keeps
 *   them: int8 rows with a scale each).
 *
 * The passage, sentence and gloss-line vectors are carried in the 8-bit codes the server's index
 * scans (row-codes.ts), so a device holds them bit for bit; other dense float matrices (term rows)
 * are quantised to 16 bits by row: the ranks stay those of the server (the parity test). LSA's
 * lexical random projection is left out: a device draws the rows a query needs from its seed.
 * The two models' lexicon is one (they are fitted on one book), kept once.
 */
export const PACK_FORMAT = 3;

export interface PackedModel {
  identity: ModelIdentity;
  recipe: QueryRecipe;
  /** The fitted state's meta, its lexicon replaced by its place in `lexicons` (or null). */
  meta: Record<string, unknown> & { lexicon: number | null };
  arrays: Record<string, Float32Array>;
  vectors: Float32Array;
  sentences: SentenceVectors;
}

export interface PackContents {
  format: number;
  version: string;
  book: { title: string; passages: BookPassage[] };
  words: { source: string; dims: number; words: string; ranks: Float32Array; vectors: Int8Array; scales: Float32Array } | null;
  lexicons: LexiconData[];
  models: PackedModel[];
}

/** A model the server answers with: restored from a fitted state, and indexed. */
export interface PackableModel {
  model: RestoredModel;
  vectors: Float32Array;
  sentences: SentenceVectors;
}

/**
 * The sentence vectors as the pack keeps them: every part as it is (their spans, where each
 * passage's start, and whatever else the index ranks by, such as lines of a gloss), each `vectors`
 * of `dim`-long rows in the index's 8-bit codes.
 */
function packedSentences(value: unknown, dim: number): PackValue {
  if (value instanceof Float32Array) return value;
  if (value === null || typeof value !== 'object') return value as PackValue;
  return Object.fromEntries(
    Object.entries(value).map(([key, part]) => [key, key === 'vectors' && part instanceof Float32Array ? new CodedRows(part, dim) : packedSentences(part, dim)]),
  );
}

/** State arrays a device does without: LSA's random projection, drawn again from its seed. */
const DRAWN_FROM_SEED = new Set(['lexicalProjection']);

/**
 * The pack's tree, for encodePack: `version` names it (the server derives it from the book's and
 * the models' versions). Every model shares one set of word vectors, if any.
 */
export function packValue(version: string, book: PackContents['book'], models: PackableModel[]): PackValue {
  const lexicons: LexiconData[] = [];
  let words: WordVectors | undefined;
  const packed = models.map(({ model, vectors, sentences }) => {
    const { recipe, state, resources } = model.restoredFrom;
    if (resources.words) {
      if (words && words !== resources.words) throw new Error('the models read different word vectors');
      words = resources.words;
    }
    const { lexicon, ...meta } = state.meta as Record<string, unknown> & { lexicon?: LexiconData };
    let lexiconAt: number | null = null;
    if (lexicon) {
      lexiconAt = lexicons.findIndex(
        (l) => l.lemmas === lexicon.lemmas && l.related === lexicon.related && l.glossary === lexicon.glossary && l.words === lexicon.words,
      );
      if (lexiconAt === -1) lexiconAt = lexicons.push(lexicon) - 1;
    }
    // A term matrix (a row per vocabulary term) is quantised by rows; other arrays kept whole.
    const terms = Array.isArray(meta.vocabulary) ? meta.vocabulary.length : 0;
    const arrays: Record<string, PackValue> = {};
    for (const [name, array] of Object.entries(state.arrays)) {
      if (DRAWN_FROM_SEED.has(name)) continue;
      arrays[name] = terms > 1 && array.length > terms && array.length % terms === 0 ? new QuantisedRows(array, array.length / terms) : array;
    }
    return {
      identity: { id: model.id, family: model.family, name: model.name, version: model.version },
      recipe: recipe as unknown as PackValue,
      meta: { ...(meta as Record<string, PackValue>), lexicon: lexiconAt },
      arrays,
      vectors: new CodedRows(vectors, model.dim),
      sentences: packedSentences(sentences, model.dim),
    };
  });
  return {
    format: PACK_FORMAT,
    version,
    book: {
      title: book.title,
      passages: book.passages.map(({ id, text, chapter, section, index, paragraphs }) => ({
        id,
        text,
        chapter,
        section,
        index,
        paragraphs: paragraphs.map(({ anchor, at, from, to }) => ({ anchor, at, from, to })),
      })),
    },
    words: words
      ? { source: words.source, dims: words.dims, words: words.table.words.join(' '), ranks: words.table.ranks, vectors: words.table.vectors, scales: words.table.scales }
      : null,
    lexicons: lexicons as unknown as PackValue,
    models: packed,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The decoded tree as pack contents, when it is a pack of this format (else a PackError). */
export function asPackContents(tree: unknown): PackContents {
  if (!isObject(tree) || tree.format !== PACK_FORMAT) throw new PackError(`not an offline pack of format ${PACK_FORMAT}`);
  const { version, book, words, lexicons, models } = tree;
  const wellFormed =
    typeof version === 'string' &&
    isObject(book) &&
    Array.isArray(book.passages) &&
    (words === null || (isObject(words) && words.vectors instanceof Int8Array && typeof words.words === 'string')) &&
    Array.isArray(lexicons) &&
    Array.isArray(models) &&
    models.every((m) => isObject(m) && isObject(m.identity) && isObject(m.recipe) && isObject(m.meta) && m.vectors instanceof Float32Array && isObject(m.sentences));
  if (!wellFormed) throw new PackError('the offline pack is missing a part');
  return tree as unknown as PackContents;
}
