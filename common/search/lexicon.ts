import { remembered } from './text.ts';

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

/** How many words' relatives, and thesaurus entries, a lexicon keeps (text.ts, `remembered`). */
const KEPT_ANSWERS = 20_000;

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
    return remembered(this.answers.related, word, KEPT_ANSWERS, () => {
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
    return remembered(this.answers.glossary, word, KEPT_ANSWERS, () => this.lineFor(this.built().glossary, word, true)?.split(' ') ?? []);
  }
}

/** Lines of words by their first word, the rest kept as text until a query asks for it. */
export function linesByWord(text: string | undefined): Map<string, string> {
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
export const FORM_RULES: Array<[string, string]> = [
  ['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['es', 'e'], ['es', ''],
  ['s', ''], ['ied', 'y'], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['er', ''], ['est', ''], ['ly', ''],
];

/** Whether a rule reads `word` as a form: long enough beside the ending it has. */
export const ruleApplies = (word: string, suffix: string) => word.length > suffix.length + 2 && word.endsWith(suffix);

/** A word and its likely base forms. */
export function baseForms(word: string): string[] {
  const forms = [word];
  for (const [suffix, replacement] of FORM_RULES) {
    if (ruleApplies(word, suffix)) forms.push(word.slice(0, -suffix.length) + replacement);
  }
  return forms;
}
