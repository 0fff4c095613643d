import { contentWords, stem } from './text.ts';
import { loadWordNet } from './wordnet.ts';

/**
 * Word knowledge from beyond the book, reduced to what the book's models can use: WordNet's
 * lemmas (to tell a word from an archaic or inflected form) and, for each word WordNet relates to
 * the book's vocabulary, the book's terms it stands for with a weight (synonyms 1, derived forms
 * and near neighbours less). Fitted with the model and saved with it, so a restart reads no WordNet.
 */
export interface LexiconData {
  lemmas: string[];
  /** word → [book term, weight] pairs, flattened: term, weight, term, weight… */
  related: Record<string, Array<string | number>>;
}

export class Lexicon {
  private readonly lemmas: Set<string>;
  private readonly related: Map<string, Array<[string, number]>>;

  constructor(data: LexiconData) {
    this.lemmas = new Set(data.lemmas);
    this.related = new Map(
      Object.entries(data.related).map(([word, flat]) => {
        const pairs: Array<[string, number]> = [];
        for (let i = 0; i < flat.length; i += 2) pairs.push([String(flat[i]), Number(flat[i + 1])]);
        return [word, pairs];
      }),
    );
  }

  readonly isWord = (word: string): boolean => this.lemmas.has(word);

  /** The book's terms a word stands for, beyond its own stem (none when WordNet knows no relative). */
  relatedTerms(word: string): Array<[string, number]> {
    for (const base of baseForms(word)) {
      const found = this.related.get(base);
      if (found) return found;
    }
    return [];
  }
}

/** A word and its likely base forms (WordNet's morphy rules, without its exception lists). */
export function baseForms(word: string): string[] {
  const forms = [word];
  const rules: Array<[string, string]> = [
    ['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['es', 'e'], ['es', ''],
    ['s', ''], ['ied', 'y'], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['er', ''], ['est', ''], ['ly', ''],
  ];
  for (const [suffix, replacement] of rules) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) forms.push(word.slice(0, -suffix.length) + replacement);
  }
  return forms;
}

/**
 * The lexicon for a book, from the book's own words (modern forms, as `contentWords` gives them):
 * every WordNet word related to one of them points back to its term. WordNet's relations go both
 * ways (synonyms, hypernym and hyponym, derived forms), so walking out from the book's few thousand
 * words finds every word that leads into the book.
 */
export function buildLexicon(bookWords: Iterable<string>): LexiconData {
  const wordnet = loadWordNet();
  const book = new Set(bookWords);
  const best = new Map<string, Map<string, number>>();
  for (const bookWord of book) {
    const lemma = baseForms(bookWord).find((form) => wordnet.lemmas.has(form));
    if (!lemma) continue;
    const term = stem(bookWord);
    for (const [word, weight] of wordnet.related(lemma)) {
      if (stem(word) === term) continue;
      let terms = best.get(word);
      if (!terms) best.set(word, (terms = new Map()));
      if (weight > (terms.get(term) ?? 0)) terms.set(term, weight);
    }
  }
  const related: LexiconData['related'] = {};
  for (const [word, terms] of best) related[word] = [...terms].flat();
  // Only the lemmas that decide an -est/-eth word (forest, honest) are kept; bases are checked
  // against the book's words and the related words, which hold every base a query could need.
  const lemmas = [...new Set([...wordnet.lemmas].filter((w) => /(est|eth)$/.test(w) || best.has(w)).concat([...book]))];
  return { lemmas, related };
}

/** The lexicon for these passages (what a corpus model fits with). */
export function fitLexicon(passages: string[]): LexiconData {
  const { lemmas } = loadWordNet();
  const isWord = (word: string) => lemmas.has(word);
  return buildLexicon(passages.flatMap((text) => contentWords(text, isWord).map((w) => w.word)));
}
