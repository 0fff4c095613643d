// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { partsAsked, table, twinsOf, twinTable } from '../../server/eval/evaluate.ts';
import type { EvalQuestion } from '../../server/eval/metrics.ts';
import { typodQuestions, typoTwin, typoTwins } from '../../server/eval/typos.ts';

const question = (query: string, style: EvalQuestion['style'] = 'question', twin?: string): EvalQuestion => ({
  part: 'dev',
  chapter: 'I',
  style,
  query,
  gold: ['x'],
  ...(twin ? { twin } : {}),
});

/** The positions where two strings of one length differ. */
const differences = (a: string, b: string) => [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));

describe("typo'd twins of the evaluation's questions", () => {
  it('swap two neighbouring, different letters in each of the two longest words, and nowhere else', () => {
    const query = 'How should I bear patience when my neighbour wrongs me?';
    const typod = typoTwin(query);
    expect(typod).toHaveLength(query.length);
    const changed = differences(query, typod);
    // "patience" and "neighbour" (eight and nine letters), two positions each, side by side and swapped.
    expect(changed).toHaveLength(4);
    for (const [i, j] of [changed.slice(0, 2), changed.slice(2)] as Array<[number, number]>) {
      expect(j).toBe(i + 1);
      expect([typod[i], typod[j]]).toEqual([query[j], query[i]]);
    }
    const within = (word: string, i: number) => i >= query.indexOf(word) && i < query.indexOf(word) + word.length;
    expect(changed.filter((i) => within('patience', i))).toHaveLength(2);
    expect(changed.filter((i) => within('neighbour', i))).toHaveLength(2);
  });

  it('are the same every time for the same query, and another seed gives other slips', () => {
    const query = 'what the ancient philosophers thought about contentment';
    expect(typoTwin(query)).toBe(typoTwin(query));
    const seeds = new Set([0, 1, 2, 3, 4, 5].map((seed) => typoTwin(query, seed)));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('leave a query of short words alone, and a one-word query has one slip', () => {
    expect(typoTwin('why am I sad')).toBe('why am I sad');
    expect(differences('divorce', typoTwin('divorce'))).toHaveLength(2);
    expect(typoTwins([question('why am I sad'), question('divorce')]).map((q) => [q.twin, q.style])).toEqual([['divorce', 'typo']]);
  });

  it("are generated only for a part that has no typo'd questions of its own", () => {
    const own = question('pateince', 'typo', 'patience');
    expect(typodQuestions([question('patience'), own])).toEqual({ typod: [own], generated: false });
    const generated = typodQuestions([question('patience')]);
    expect(generated.generated).toBe(true);
    expect(twinsOf(generated.typod).map((q) => q.query)).toEqual(['patience']);
  });
});

describe("the evaluation's report", () => {
  it('reads --part as the one part to print, and refuses any other', () => {
    expect(partsAsked(['node', 'run-eval.ts'])).toEqual(['dev', 'test']);
    expect(partsAsked(['node', 'run-eval.ts', '--part', 'dev'])).toEqual(['dev']);
    expect(() => partsAsked(['node', 'run-eval.ts', '--part', 'blind'])).toThrow(/--part must be dev or test/);
    expect(() => partsAsked(['node', 'run-eval.ts', '--part'])).toThrow(/--part must be dev or test/);
  });

  it("scores the clean questions overall and the typo'd ones in a column of their own", () => {
    const set = [question('a'), question('b', 'keyword'), question('c', 'typo', 'a')];
    const [, , row] = table([['m', [1, null, 2]]], set).split('\n');
    // Overall: two clean questions, one hit at 1; the typo'd one is found at rank 2.
    expect(row).toBe('| m | 0.50 | 0.50 | 0.500 | 0.00 / 0.00 / 0.00 | 1.00 / 1.00 / 1.00 | 0.00 / 1.00 / 0.50 |');
  });

  it("sets typo'd questions beside their twins", () => {
    const [, , row] = twinTable([{ name: 'm', typod: [null, 3, 1, 4], twins: [1, 1, 1, 2] }]).split('\n');
    expect(row).toBe('| m | 0.25 | 0.75 | 0.50 | 1.00 | 0.50 |');
    expect(() => twinsOf([question('pateince', 'typo')])).toThrow(/names no twin/);
  });
});
