import { contentWords, stem } from '../../../../common/search/text.ts';
import { baseForms, FORM_RULES, linesByWord, ruleApplies, type LexiconData } from '../../../../common/search/lexicon.ts';
import { openWordNet, type WordNetView } from './wordnet.ts';
import { parseThesaurus, READER_THESAURUS } from './reader-thesaurus.ts';

/**
 * The lexicon for a book, from the book's own words (modern forms, as `contentWords` gives them):
 * every WordNet word related to one of them points back to its term. WordNet's relations go both
 * ways (synonyms, hypernym and hyponym, derived forms), so walking out from the book's few thousand
 * words finds every word that leads into the book.
 */
export function buildLexicon(wordnet: WordNetView, bookWords: Iterable<string>, moreLemmas: Iterable<string> = []): LexiconData {
  const book = new Set(bookWords);
  const lemmaOf = new Map<string, string>();
  for (const word of book) {
    const lemma = baseForms(word).find((form) => wordnet.lemmas.has(form));
    if (lemma) lemmaOf.set(word, lemma);
  }
  const relatedByLemma = wordnet.relatedTo(new Set(lemmaOf.values()));
  const best = new Map<string, Map<string, number>>();
  for (const [bookWord, lemma] of lemmaOf) {
    const term = stem(bookWord);
    for (const [word, weight] of relatedByLemma.get(lemma)!) {
      if (stem(word) === term) continue;
      let terms = best.get(word);
      if (!terms) best.set(word, (terms = new Map()));
      if (weight > (terms.get(term) ?? 0)) terms.set(term, weight);
    }
  }
  const related = [...best].map(([word, terms]) => [word, ...[...terms].flat()].join(' '));
  // Only the lemmas that decide an -est/-eth word (forest, honest) are kept, with the book's own
  // words, the related ones and those asked for: every base a query's word could need.
  const lemmas = [...new Set([...wordnet.lemmas].filter((w) => /(est|eth)$/.test(w) || best.has(w)).concat([...book], [...moreLemmas]))];
  return { lemmas: lemmas.join(' '), related: related.join('\n') };
}

/**
 * The reader's thesaurus reduced to the book: each reader's word with the book's terms its entry
 * names, those the book uses (in their modern form and stem, as `contentWords` gives them).
 */
export function buildGlossary(thesaurus: string, bookTerms: Set<string>, isWord: (word: string) => boolean): string {
  const lines: string[] = [];
  for (const [word, bookWords] of parseThesaurus(thesaurus)) {
    const terms = new Set(contentWords(bookWords.join(' '), isWord).map((w) => w.term).filter((t) => bookTerms.has(t)));
    terms.delete(stem(word));
    if (terms.size > 0) lines.push([word, ...terms].join(' '));
  }
  return lines.join('\n');
}

/**
 * The words of their own (WordNet's lemmas) that look like a form of a thesaurus word:
 * "incoming" of income, "earnest" of earn, "number" of numb. The lexicon knows them as words, so
 * that `glossaryTerms` never reads them as those forms.
 */
export function wordsLikeForms(glossary: string, lemmas: ReadonlySet<string> | Iterable<string>): string[] {
  const isLemma = lemmas instanceof Set ? lemmas : new Set(lemmas);
  const entries = new Set(linesByWord(glossary).keys());
  const out = new Set<string>();
  // Each entry's would-be forms, by the rules `baseForms` undoes: a thousand entries to turn
  // round, rather than every one of WordNet's lemmas to take apart.
  for (const entry of entries) {
    for (const [suffix, replacement] of FORM_RULES) {
      if (!entry.endsWith(replacement)) continue;
      const form = entry.slice(0, entry.length - replacement.length) + suffix;
      if (ruleApplies(form, suffix) && isLemma.has(form) && !entries.has(form)) out.add(form);
    }
  }
  return [...out];
}

let lastFit: { passages: string[]; glossary: boolean; words: boolean; data: LexiconData } | undefined;

/**
 * The lexicon for these passages (what a corpus model fits with), with the reader's thesaurus
 * where `glossary` asks for it, and WordNet's words where `words` does. Both models of a lineup fit
 * on the same passages, so the last one is kept for the second; WordNet itself is let go.
 */
export function fitLexicon(passages: string[], glossary = false, words = false): LexiconData {
  if (lastFit?.passages === passages && lastFit.glossary === glossary && lastFit.words === words) return lastFit.data;
  const wordnet = openWordNet();
  const isWord = (word: string) => wordnet.lemmas.has(word);
  const book = passages.flatMap((text) => contentWords(text, isWord));
  const reduced = glossary ? buildGlossary(READER_THESAURUS, new Set(book.map((w) => w.term)), isWord) : undefined;
  // The lemmas that only look like a thesaurus word's forms are kept as words of their own.
  const data = buildLexicon(
    wordnet,
    book.map((w) => w.word),
    reduced === undefined ? [] : wordsLikeForms(reduced, wordnet.lemmas),
  );
  if (reduced !== undefined) data.glossary = reduced;
  if (words) data.words = [...wordnet.lemmas].sort().join(' ');
  lastFit = { passages, glossary, words, data };
  return data;
}
