import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { EvalQuestion } from '../../server/eval/metrics.ts';
import { codedDot, codeQuery } from '../../common/search/dot-kernel.ts';
import { codeRows } from '../../common/search/row-codes.ts';
import { corpusEngine } from './engine-helpers.ts';

describe('the weight-free models’ ranking by passage and closest sentence', async () => {
  const engine = await corpusEngine();
  const { questions } = JSON.parse(await readFile(new URL('../../server/eval/questions.json', import.meta.url), 'utf8')) as {
    questions: EvalQuestion[];
  };
  const dev = questions.filter((q) => q.part === 'dev');

  // The vector models (the keyword arm ranks by words, not cosines).
  it.each(engine.entries.filter((e) => !('keyword' in e)).map((e) => [e.id, e] as const))(
    '%s gives every dev question the first three that its passages’, sentences’ and gloss lines’ coded cosines, worked out one by one, give',
    async (_id, entry) => {
      if (!('index' in entry)) throw new Error('error' in entry ? entry.error : 'no vector index');
      const index = entry.index;
      const weight = index.model.sentenceWeight ?? 0;
      expect(weight).toBeGreaterThan(0);
      const { first, vectors, glossLines } = index.sentences!;
      expect(glossLines).toBeDefined();
      const dim = index.model.dim;
      // Every row as the scan holds it: its 8-bit codes (row-codes.ts), the question in 16 bits.
      const coded = new Map([index.vectors, vectors, glossLines!.vectors].map((rows) => [rows, codeRows(rows, dim)]));
      const dot = (rows: Float32Array, row: number, q: ReturnType<typeof codeQuery>) => {
        const { scales, codes } = coded.get(rows)!;
        return codedDot({ scale: scales[row]!, codes: codes.subarray(row * dim, (row + 1) * dim) }, q);
      };
      for (const q of dev) {
        const v = codeQuery(await index.model.embedQuery(q.query), dim);
        const everyPassage = Array.from({ length: index.count }, (_, p) => {
          let closest = -Infinity;
          for (let s = first[p]!; s < first[p + 1]!; s++) closest = Math.max(closest, dot(vectors, s, v));
          for (let s = glossLines!.first[p]!; s < glossLines!.first[p + 1]!; s++) closest = Math.max(closest, dot(glossLines!.vectors, s, v));
          return [(1 - weight) * dot(index.vectors, p, v) + weight * closest, p] as const;
        })
          .sort((a, b) => b[0] - a[0] || a[1] - b[1])
          .slice(0, 3)
          .map(([, p]) => p);
        expect(index.search(await index.model.embedQuery(q.query), 3).map((h) => h.passage), q.query).toEqual(everyPassage);
      }
    },
  );
});
