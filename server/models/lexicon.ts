import { contentWords, stem } from './text.ts';
import { openWordNet, type WordNetView } from './wordnet.ts';
import { parseThesaurus, READER_THESAURUS } from './reader-thesaurus.ts';

/**
 * Word knowledge from beyond the book, reduced to what the book's models can use: WordNet's
 * lemmas (to tell a word from an archaic or inflected form) and, for each word WordNet relates to
 * the book's vocabulary, the book's terms it stands for with a weight (synonyms 1, derived forms
 * and near neighbours less). Fitted with the model and saved with it, so a restart reads no WordNet.
 */
export interface LexiconData {
  /** The words `isWord` knows, separated by spaces: the book's own, the words WordNet relates to them, and WordNet's -est/-eth lemmas. */
  lemmas: string;
  /** A line per word: the word, then each book term it stands for and its weight ("exteriorize object 0.7 chang 0.4"). */
  related: string;
  /**
   * The reader's thesaurus (reader-thesaurus.ts) reduced to the book: a line per reader's word,
   * then the book's terms it stands for ("afterlife hereaft next world"). Absent: none.
   */
  glossary?: string;
  /**
   * Every single-word lemma of WordNet, sorted, separated by spaces, for the speller (query-spelling.ts) to
   * know a word it must leave alone and a word a slip may stand for. Absent unless asked for.
   */
  words?: string;
}

/**
 * Saved with each model as texts (lemmas, WordNet relatives, thesaurus) rather than arrays and
 * objects: a restart parses them in ~10 ms where the same as JSON arrays and objects took
 * ~100 ms per model. The tables are built on first use: a restart that loads passage vectors
 * from the cache needs none until the first query, and a word's relatives or entry are read from
 * its line only when a query has the word.
 */
export class Lexicon {
  private tables?: { lemmas: Set<string>; related: Map<string, string>; glossary: Map<string, string> };
  /** What `relatedTerms` and `glossaryTerms` gave each word asked about: both models ask about every word of every question. */
  private readonly answers = { related: new Map<string, Array<[string, number]>>(), glossary: new Map<string, string[]>() };

  constructor(readonly data: LexiconData) {}

  private built() {
    this.tables ??= {
      lemmas: new Set(this.data.lemmas.split(' ')),
      related: linesByWord(this.data.related),
      glossary: linesByWord(this.data.glossary),
    };
    return this.tables;
  }

  readonly isWord = (word: string): boolean => this.built().lemmas.has(word);

  /**
   * The rest of the line a word or its base form starts; with `ownWordsStop`, none once a form is
   * a word of its own ("cares" is care, which stops there, never car).
   */
  private lineFor(table: Map<string, string>, word: string, ownWordsStop: boolean): string | undefined {
    for (const base of baseForms(word)) {
      const line = table.get(base);
      if (line !== undefined) return line;
      if (ownWordsStop && this.isWord(base)) return undefined;
    }
    return undefined;
  }

  /** The book's terms a word stands for, beyond its own stem (none when WordNet knows no relative). Not to be changed. */
  relatedTerms(word: string): Array<[string, number]> {
    return remembered(this.answers.related, word, () => {
      const line = this.lineFor(this.built().related, word, false);
      if (line === undefined) return [];
      const fields = line.split(' ');
      const pairs: Array<[string, number]> = [];
      for (let i = 0; i + 1 < fields.length; i += 2) pairs.push([fields[i]!, Number(fields[i + 1])]);
      return pairs;
    });
  }

  /**
   * The book's terms the reader's thesaurus gives for a word or the word it is a form of (none
   * when it has no entry). A word of its own is never read as another's form: "cares" is care,
   * not car; "earnest" is not earn.
   */
  glossaryTerms(word: string): string[] {
    return remembered(this.answers.glossary, word, () => this.lineFor(this.built().glossary, word, true)?.split(' ') ?? []);
  }
}

/** The answer for `word` from `answers`, worked out once; the map is emptied when it grows past 20,000 words. */
function remembered<T>(answers: Map<string, T>, word: string, work: () => T): T {
  let answer = answers.get(word);
  if (answer === undefined) {
    if (answers.size >= 20_000) answers.clear();
    answers.set(word, (answer = work()));
  }
  return answer;
}

/** Lines of words by their first word, the rest kept as text until a query asks for it. */
function linesByWord(text: string | undefined): Map<string, string> {
  const lines = new Map<string, string>();
  for (const line of text?.split('\n') ?? []) {
    const space = line.indexOf(' ');
    if (space > 0) lines.set(line.slice(0, space), line.slice(space + 1));
  }
  return lines;
}

let lastLexicon: Lexicon | undefined;

/** The lexicon for saved data: both models of a lineup save the same, and share one (its tables are built once). */
export function lexiconFor(data: LexiconData): Lexicon {
  if (
    lastLexicon?.data.lemmas !== data.lemmas ||
    lastLexicon.data.related !== data.related ||
    lastLexicon.data.glossary !== data.glossary
  )
    lastLexicon = new Lexicon(data);
  return lastLexicon;
}

/** WordNet's morphy rules, without its exception lists: an ending, and what it stands for in the base form. */
const FORM_RULES: Array<[string, string]> = [
  ['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['es', 'e'], ['es', ''],
  ['s', ''], ['ied', 'y'], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['er', ''], ['est', ''], ['ly', ''],
];

/** Whether a rule reads `word` as a form: long enough beside the ending it has. */
const ruleApplies = (word: string, suffix: string) => word.length > suffix.length + 2 && word.endsWith(suffix);

/** A word and its likely base forms. */
export function baseForms(word: string): string[] {
  const forms = [word];
  for (const [suffix, replacement] of FORM_RULES) {
    if (ruleApplies(word, suffix)) forms.push(word.slice(0, -suffix.length) + replacement);
  }
  return forms;
}

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
