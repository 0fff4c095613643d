import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult, Stats } from '../../contract/api-schemas.ts';
import { REACTION_SYMBOLS, type Reaction } from '../../contract/vocabulary.ts';
import type { ExportRow } from '../../server/modules/arena/export-format.ts';
import { writeVoteExport } from '../../server/modules/arena/vote-export.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { vectorPairEngine } from './engine-helpers.ts';
import { arenaReaders, firstOfEachArm, STORES, roundVote, startTestServer, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';
const BOUND = 2;
const HOUR_MS = 3_600_000;

let engine: RetrievalEngine;
beforeAll(async () => {
  engine = await vectorPairEngine();
});

/** The export's reason, as /api/stats names it. */
const STATS_NAME: Record<string, string> = {
  repeat: 'repeat',
  'over-daily-bound': 'overDailyBound',
  'not-shown': 'notShown',
  'unknown-model': 'unknownModel',
  unchecked: 'unchecked',
  'no-receipt': 'noReceipt',
  forged: 'forged',
  expired: 'expired',
  'other-reader': 'otherReader',
  'not-drawn': 'notDrawn',
  'not-first': 'notFirst',
};
/** Reasons a round leaves the comparison whose votes still count among the reactions. */
const VOTES_COUNT = new Set(['', 'one-sided', 'same-passage', 'over-daily-bound']);

/**
 * What /api/stats would say, worked out from the export alone: each round row (`kind` round) by
 * its `left_out_reason`, each vote by the row it is in.
 */
function statsOf(rows: ExportRow[]) {
  const rounds = rows.filter((r) => r.kind !== 'vote');
  const leftOut = Object.fromEntries(Object.values(STATS_NAME).map((name) => [name, 0]));
  let oneSided = 0;
  let samePassage = 0;
  for (const r of rounds) {
    if (r.left_out_reason === 'one-sided') oneSided++;
    else if (r.left_out_reason === 'same-passage') samePassage++;
    else if (r.left_out_reason !== '') leftOut[STATS_NAME[r.left_out_reason]!]! += 1;
  }
  const reactions: Record<string, Record<Reaction, number>> = {};
  const leftOutVotes: Record<string, number> = { repeat: 0, verdicts: 0 };
  for (const r of rows) {
    for (const [model, reaction] of [[r.model_a, r.reaction_a], [r.model_b, r.reaction_b]] as const) {
      if (model === null || reaction === null) continue;
      if (r.kind !== 'vote' && VOTES_COUNT.has(r.left_out_reason)) {
        reactions[model] ??= { '👍': 0, '🤷': 0, '👎': 0 };
        reactions[model][reaction] += 1;
      } else if (r.left_out_reason === 'repeat') leftOutVotes.repeat! += 1;
      else leftOutVotes.verdicts! += 1;
    }
  }
  return {
    rounds: { compared: rounds.filter((r) => r.counted).length, oneSided, samePassage, leftOut },
    reactions,
    leftOutVotes,
  };
}

/** The same figures as /api/stats gives them. */
function figuresOf(stats: Stats) {
  const { fromDevice: _fromDevice, ...rounds } = stats.rounds;
  const reactions = Object.fromEntries(
    stats.models.filter((m) => m.reactions.total > 0).map((m) => [m.model, Object.fromEntries(REACTION_SYMBOLS.map((s) => [s, m.reactions[s]]))]),
  );
  const { repeat, ...verdicts } = stats.leftOutVotes;
  return { rounds, reactions, leftOutVotes: { repeat, verdicts: Object.values(verdicts).reduce((n, c) => n + c, 0) } };
}

/**
 * The export tells the story /api/stats tells: every round and every vote it gives, added up by
 * its verdict, are /api/stats' figures, played through the real API, receipts and all, around the
 * two places where the export's own rules once differed from the tallies kept at vote time.
 */
describe.each(STORES)('npm run votes -- export adds up to /api/stats, on %s store', (store) => {
  let server: TestServer;
  const clock = { ms: Date.parse('2026-11-23T23:00:00Z') };
  beforeAll(async () => {
    server = await startTestServer(store, { extra: { engine, dailyRoundBound: BOUND, now: () => clock.ms } });
  });
  afterAll(() => server.close());

  const { reader, search, save, stats } = arenaReaders(() => server, PASSWORD);
  /** A search's first result of each of its two arms (LSA and SIF: the pool holds no other). */
  const draw = async (name: string, query: string) => firstOfEachArm(await search(name, query));
  const round = (query: string, [a, b]: SearchResult[], ra: Reaction, rb: Reaction, id = randomUUID()) => [
    roundVote(query, a!, 'A', ra, id),
    roundVote(query, b!, 'B', rb, id),
  ];
  const exported = async () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    });
    await writeVoteExport(server.db, { format: 'jsonl', dailyRoundBound: BOUND }, out);
    return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as ExportRow);
  };

  it('a round decided on one day and again the next, past that day’s bound, and one arm drawn twice for a question', async () => {
    const name = await reader();

    // Day one, 23:00 UTC: "hypocrisy" decided, the day's first round.
    await save(name, round('hypocrisy', await draw(name, 'hypocrisy'), '👍', '👎'));

    // Day two: two other rounds reach the bound; then a new search of "hypocrisy" (the same pair
    // drawn), decided again the other way: the round's day stays the one it was first decided.
    clock.ms += 2 * HOUR_MS;
    await save(name, round('death', await draw(name, 'death'), '👍', '🤷'));
    await save(name, round('poverty', await draw(name, 'poverty'), '🤷', '👎'));
    await save(name, round('hypocrisy', await draw(name, 'hypocrisy'), '👎', '👍'));
    // A fourth round that day: past the bound by either day.
    await save(name, round('pride', await draw(name, 'pride'), '👍', '👎'));

    // One question drawn twice with LSA (by the server, then offline by the device), each round
    // voted on LSA's same first passage: LSA's reaction counts in each.
    clock.ms += 24 * HOUR_MS;
    const hell = await draw(name, 'hell');
    await save(name, round('hell', hell, '👍', '🤷'));
    await save(name, round('hell', hell.map(({ receipt: _receipt, ...r }) => ({ ...r, receipt: 'device' })), '🤷', '👍'));

    // And the ordinary rest: a card rated again within its round, a lone vote, a forged receipt.
    const rated = randomUUID();
    const mind = await draw(name, 'death');
    await save(name, round('death', mind, '👍', '👍', rated));
    await save(name, [roundVote('death', mind[1]!, 'B', '👎', rated)]);
    await save(name, [roundVote('poverty', (await draw(name, 'poverty'))[0]!, 'A', '👍', randomUUID())]);
    const [a, b] = await draw(name, 'pride');
    await save(name, round('pride', [{ ...a!, receipt: 'v1.e30.AAAA' }, b!], '👍', '👎'));

    const figures = figuresOf(await stats(name));
    // The edge cases were met: a round decided again, and a day's bound reached.
    expect(figures.rounds.leftOut.repeat).toBeGreaterThanOrEqual(1);
    expect(figures.rounds.leftOut.overDailyBound).toBeGreaterThanOrEqual(1);
    expect(figures.leftOutVotes.repeat).toBeGreaterThanOrEqual(3);
    expect(statsOf(await exported())).toEqual(figures);
  }, 120_000);
});
