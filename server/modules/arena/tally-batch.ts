import type { Reaction } from '../../../contract/vocabulary.ts';
import { REACTION_RANK } from './stats/rounds.ts';

/**
 * The arena's rules as the tallies apply them to a reader's batch of votes (docs/arena.md):
 * plain computation on the state the batch touches, read and written by sql/tallies.ts.
 */

/** A vote as stored, as the tallies need it. */
export interface StoredVote {
  id: string;
  author: string;
  round_key: string;
  user_type: string;
  model_type: string;
  reaction: Reaction;
  question_id: string;
  passage_id: string | null; // its set and id (passage-key.ts)
  verdict: string;
  drawn_by: string | null;
  drawn_pair: string | null;
  created_at: Date;
}

/** The two arms of a stored drawn pair, in their stored (sorted) order. */
export function armsOf(drawnPair: string): [string, string] {
  const names = drawnPair.startsWith('device\n') ? drawnPair.slice('device\n'.length) : drawnPair;
  const [lo, hi] = names.split('\n');
  return [lo!, hi!];
}

export interface RoundRow {
  question_id: string;
  drawn_pair: string;
  user_type: string;
  lo_vote: string | null;
  lo_passage: string | null;
  lo_reaction: Reaction | null;
  hi_vote: string | null;
  hi_passage: string | null;
  hi_reaction: Reaction | null;
  status: string | null;
  round_key: string | null;
}

/** From the lo arm's side: 1 a win, 0 a tie, -1 a loss. */
const outcome = (lo: Reaction, hi: Reaction) => Math.sign(REACTION_RANK[lo] - REACTION_RANK[hi]);

/** A vote's UTC day, as arena_reader_days keeps it. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The reader's tallies a batch touches, as they stand (read under the reader's lock). */
export interface ReaderState {
  rounds: RoundRow[];
  days: Array<{ day: string; decided: number }>;
  left: string[];
}

/** What a batch changes: the rounds' rows as they end, the days' increments, new left-out rounds, the pairs' and the counters' changes. */
export interface TallyChanges {
  rounds: RoundRow[];
  days: Map<string, number>;
  left: string[];
  pairs: Array<{ lo: string; hi: string; userType: string; w: number; t: number; l: number }>;
  counts: Map<string, number>;
}

/**
 * The arena's rules applied to one reader's `votes` (in the order of their ids), from `state`:
 * plain computation, no database. A vote older than the one its round's arm already holds (two
 * batches of one reader stored at once, or a vote checked late) is a repeat: the newest counts.
 */
export function tallyBatch(state: ReaderState, votes: readonly StoredVote[], bound: number): TallyChanges {
  const rounds = new Map(state.rounds.map((r) => [`${r.question_id}\n${r.drawn_pair}`, { ...r }]));
  const changedRounds = new Set<string>();
  const decidedOn = new Map(state.days.map((d) => [d.day, d.decided]));
  const days = new Map<string, number>();
  const knownLeft = new Set(state.left);
  const left: string[] = [];
  const counts = new Map<string, number>();
  const add = (name: string, n = 1) => counts.set(name, (counts.get(name) ?? 0) + n);
  const reaction = (model: string, userType: string, r: Reaction, n: number) => add(`reaction:${model}\n${userType}\n${r}`, n);
  const pairs = new Map<string, { lo: string; hi: string; userType: string; w: number; t: number; l: number }>();
  const pair = (lo: string, hi: string, userType: string, o: number, n: number) => {
    const key = `${lo}\n${hi}\n${userType}`;
    const p = pairs.get(key) ?? { lo, hi, userType, w: 0, t: 0, l: 0 };
    if (o > 0) p.w += n;
    else if (o < 0) p.l += n;
    else p.t += n;
    pairs.set(key, p);
  };

  // A round_id's votes together (a batch is stored in client_id order, its rounds interleaved),
  // the round_ids in the order of their newest vote, each one's votes in the order they were stored.
  const newest = new Map<string, number>();
  for (const v of votes) newest.set(v.round_key, Math.max(newest.get(v.round_key) ?? 0, Number(v.id)));
  // The round_ids with a vote not counted: each counted apart once, by its first such vote's reason.
  const ordered = [...votes].sort((a, b) => newest.get(a.round_key)! - newest.get(b.round_key)! || Number(a.id) - Number(b.id));
  for (const v of ordered) {
    add('changes');
    if (v.verdict !== 'shown' || v.drawn_pair === null) {
      add(`votes:${v.verdict}`);
      if (!knownLeft.has(v.round_key)) {
        knownLeft.add(v.round_key);
        left.push(v.round_key);
        add(`rounds:${v.verdict}`);
      }
      continue;
    }
    const [lo, hi] = armsOf(v.drawn_pair);
    const side = v.model_type === lo ? 'lo' : 'hi';
    const key = `${v.question_id}\n${v.drawn_pair}`;
    const row = rounds.get(key);
    if (!row) {
      const fresh: RoundRow = {
        question_id: v.question_id, drawn_pair: v.drawn_pair, user_type: v.user_type,
        lo_vote: null, lo_passage: null, lo_reaction: null, hi_vote: null, hi_passage: null, hi_reaction: null, status: null, round_key: v.round_key,
      };
      fresh[`${side}_vote`] = v.id;
      fresh[`${side}_passage`] = v.passage_id;
      fresh[`${side}_reaction`] = v.reaction;
      rounds.set(key, fresh);
      changedRounds.add(key);
      add('rounds:one-sided');
      reaction(v.model_type, v.user_type, v.reaction, 1);
      continue;
    }
    const held = row[`${side}_vote`];
    if (held !== null && BigInt(held) > BigInt(v.id)) {
      // A newer vote of this arm is already counted: this one is its repeat.
      add('votes:repeat');
      continue;
    }
    const before = { ...row };
    if (held !== null) {
      add('votes:repeat');
      reaction(v.model_type, row.user_type, row[`${side}_reaction`]!, -1);
    }
    reaction(v.model_type, row.user_type, v.reaction, 1);
    row[`${side}_vote`] = v.id;
    row[`${side}_passage`] = v.passage_id;
    row[`${side}_reaction`] = v.reaction;
    if (row.lo_vote !== null && row.hi_vote !== null) {
      if (before.status === null) {
        add('rounds:one-sided', -1);
        if (row.lo_passage === row.hi_passage) {
          row.status = 'same-passage';
          add('rounds:same-passage');
        } else {
          const day = dayOf(v.created_at);
          const decided = (decidedOn.get(day) ?? 0) + 1;
          decidedOn.set(day, decided);
          days.set(day, (days.get(day) ?? 0) + 1);
          row.status = decided <= bound ? 'counted' : 'over-daily-bound';
          add(row.status === 'counted' ? 'rounds:compared' : 'rounds:over-daily-bound');
          if (row.status === 'counted') {
            add(`decided:${lo}\n${hi}`);
            if (v.drawn_by === 'device') add('rounds:from-device');
            pair(lo, hi, row.user_type, outcome(row.lo_reaction!, row.hi_reaction!), 1);
          }
        }
      } else {
        // Decided again (under another round_id: a new search's, or a made-up one): the newest
        // decision counts, the earlier one is a repeat. A vote again within one round_id is a vote's repeat only.
        if (v.round_key !== before.round_key) add('rounds:repeat');
        if (row.status === 'counted') {
          pair(lo, hi, row.user_type, outcome(before.lo_reaction!, before.hi_reaction!), -1);
          pair(lo, hi, row.user_type, outcome(row.lo_reaction!, row.hi_reaction!), 1);
        }
      }
    }
    row.round_key = v.round_key;
    changedRounds.add(key);
  }
  return {
    rounds: [...changedRounds].map((key) => rounds.get(key)!),
    days,
    left,
    pairs: [...pairs.values()].filter((p) => p.w || p.t || p.l),
    counts,
  };
}

