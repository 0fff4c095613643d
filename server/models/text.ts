import { stemmer } from 'stemmer';

/** Function words that carry no meaning for retrieval (plus the book's archaic forms). */
const STOPWORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between
  both but by can could did do does doing down during each few for from further had has have having he her here
  hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off
  on once only or other our ours ourselves out over own same she should so some such than that the their theirs
  them themselves then there these they this those through to too under until up very was we were what when where
  which while who whom why will with would you your yours yourself yourselves upon also may might must shall one
  thee thou thy thine thyself hath doth art hast dost shalt wilt ye unto us let said say says etc
  therefore thus yet even though although however whether whose whatever within without among`.split(/\s+/),
);

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

const stemCache = new Map<string, string>();

/** Content-word stems: what both corpus-fitted models count. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (STOPWORDS.has(word) || word.length < 2 || /^\d+$/.test(word)) continue;
    let stem = stemCache.get(word);
    if (stem === undefined) {
      stem = stemmer(word);
      stemCache.set(word, stem);
    }
    out.push(stem);
  }
  return out;
}
