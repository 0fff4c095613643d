import { stemmer } from 'stemmer';

/** Function words that carry no meaning for retrieval. Archaic ones are modernised first. */
const STOPWORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between
  both but by can could did do does doing down during each few for from further had has have having he her here
  hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off
  on once only or other our ours ourselves out over own same she should so some such than that the their theirs
  them themselves then there these they this those through to too under until up very was we were what when where
  which while who whom why will with would you your yours yourself yourselves upon also may might must shall one
  us let said say says etc therefore thus yet even though although however whether whose whatever within without
  among amongst whilst lest`.split(/\s+/),
);

/**
 * The translation's archaic forms and their modern ones, so that a reader's "do you know
 * yourself?" meets the book's "knowest thou thyself". Verb endings in -est/-eth are handled by
 * `modernise` below.
 */
export const ARCHAIC_FORMS: Record<string, string> = {
  thou: 'you',
  thee: 'you',
  ye: 'you',
  thy: 'your',
  thine: 'your',
  thyself: 'yourself',
  hath: 'has',
  hast: 'have',
  doth: 'does',
  dost: 'do',
  didst: 'did',
  art: 'are',
  wert: 'were',
  wast: 'was',
  shalt: 'shall',
  wilt: 'will',
  canst: 'can',
  couldst: 'could',
  couldest: 'could',
  wouldst: 'would',
  wouldest: 'would',
  shouldst: 'should',
  shouldest: 'should',
  hadst: 'had',
  mayest: 'may',
  mightest: 'might',
  unto: 'to',
  whence: 'where',
  whither: 'where',
  wherefore: 'why',
  hither: 'here',
  thither: 'there',
  ere: 'before',
  nay: 'no',
  oft: 'often',
  'tis': 'it',
};

/**
 * A word in today's form: an archaic pronoun or auxiliary from the table, and a verb in -est or
 * -eth (knowest, giveth, seeketh, makest) as its base form, when `isWord` knows the base and not
 * the word itself (so "forest", "honest" and "teeth" stay). Superlatives (greatest, wisest,
 * loftiest) come down to their base the same way.
 */
export function modernise(word: string, isWord: (word: string) => boolean): string {
  const table = ARCHAIC_FORMS[word];
  if (table) return table;
  const match = /^(.{2,}?)(i?)(est|eth)$/.exec(word);
  if (!match || isWord(word)) return word;
  const [, stem, i] = match as unknown as [string, string, string];
  const base = stem + i;
  // "makest" is make, not mak; "speakest" is speak (there is no speake).
  const candidates = i ? [`${stem}y`, base] : [`${base}e`, base];
  // A doubled consonant before the ending: "biddeth" → "bid".
  if (/([bdgmnprt])\1$/.test(base)) candidates.push(base.slice(0, -1));
  return candidates.find((c) => c.length >= 3 && isWord(c)) ?? word;
}

/** Lower-cased words, with accents and typographic quotes folded, hyphenated words split. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^a-z0-9']+/)
    .map((w) => w.replace(/^'+|'+$/g, '').replace(/'s$/, ''))
    .filter((w) => w.length > 0);
}

/**
 * The answer for `key` from `answers`, worked out by `work` the first time it is asked for and
 * kept; the map is emptied once it holds `bound` answers, so that a stream of new words (each
 * question may bring some) never grows it past that. What a search reads a word as (its stem, its
 * spelling, its WordNet relatives, what a model counts it for) is kept this way.
 */
export function remembered<K, T>(answers: Map<K, T>, key: K, bound: number, work: () => T): T {
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = work();
    if (answers.size >= bound) answers.clear();
    answers.set(key, answer);
  }
  return answer;
}

const stemCache = new Map<string, string>();

/** How many words' stems are kept (then all are forgotten and the count starts again). */
const KEPT_STEMS = 50_000;

/** How many words' stems are kept now. */
export const stemsKept = (): number => stemCache.size;

export function stem(word: string): string {
  return remembered(stemCache, word, KEPT_STEMS, () => stemmer(word));
}

/** A content word of a text: its modern form and that form's stem. */
export interface ContentWord {
  word: string;
  term: string;
}

const noWord = () => false;

/** The last text's content words: each model of a lineup, and the English block, read a question in turn. */
let lastRead: { text: string; isWord: (word: string) => boolean; out: readonly ContentWord[] } | undefined;

/** The content words of a text, modernised (with `isWord` to tell a base form), stop words left out. */
export function contentWords(text: string, isWord: (word: string) => boolean = noWord): readonly ContentWord[] {
  if (lastRead?.text === text && lastRead.isWord === isWord) return lastRead.out;
  const out = readContentWords(text, isWord);
  lastRead = { text, isWord, out };
  return out;
}

function readContentWords(text: string, isWord: (word: string) => boolean): ContentWord[] {
  const out: ContentWord[] = [];
  for (const raw of words(text)) {
    const word = modernise(raw, isWord);
    if (STOPWORDS.has(word) || word.length < 2 || /^\d+$/.test(word)) continue;
    out.push({ word, term: stem(word) });
  }
  return out;
}

/** Content-word stems: what the corpus-fitted models count. */
export function terms(text: string, isWord?: (word: string) => boolean): string[] {
  return contentWords(text, isWord).map((w) => w.term);
}
