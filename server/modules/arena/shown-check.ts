import { createHash } from 'node:crypto';
import { LruCache } from '../../platform/caches/lru-cache.ts';
import { ModelUnavailableError, type RetrievalEngine } from '../search/index.ts';
import { normaliseQuery, questionId } from './question.ts';

/** A vote counts only if its passage is among its model's first this many for its question. */
export const SHOWN_RANKS = 3;

/**
 * What the service made of a vote as it was saved, stored with it:
 * - `shown`: its model returns its passage among the first few for its question; it may count.
 * - `not-shown`: its model does not (a made-up passage, or another model's under this name).
 * - `unknown-model`: it names no model this service serves, so there is nothing to check it by.
 * - `unchecked`: it names a model this service knows but cannot run now (a neural model that
 *   failed to load, or one of the other lineup); the server checks it again when it next starts.
 */
export { VERDICTS, type Verdict } from '../../../contract/vocabulary.ts';
import type { Verdict } from '../../../contract/vocabulary.ts';

/** The passage set a vote is stored under when no book is served here (no engine): none it could be checked by. */
export const UNKNOWN_SET = 'unknown';

/** What a vote is checked by: its question, the model it names and the passage it shows. */
export interface VoteToCheck {
  query: string;
  model_type: string;
  retrieved_text: string;
}

export type { CheckedVote } from './sql/feedback.ts';
import type { CheckedVote } from './sql/feedback.ts';

/**
 * Checks votes against what the service shows: one search per distinct question and model,
 * its first passages kept in an LRU (keyed by the normalised question and the model), so that an
 * honest batch, and a round sent again, costs a look-up. The models read words regardless of case
 * and spacing, so the normalised question gets the passages any of its spellings got.
 */
export class ShownCheck {
  private readonly shown: LruCache<string, readonly string[]>;
  private readonly known: ReadonlySet<string>;

  /**
   * `knownModelTypes`: every name this version of the service serves under either lineup (a vote
   * for one of them that this engine cannot run is `unchecked`, not `unknown-model`).
   */
  constructor(
    private readonly engine: RetrievalEngine | null,
    knownModelTypes: readonly string[],
    capacity = 2000,
  ) {
    this.shown = new LruCache(capacity);
    this.known = new Set([...knownModelTypes, ...(engine?.modelTypes() ?? [])]);
  }

  /** The set of passages this server checks votes by (the one it serves). */
  passageSet(): string {
    return this.engine?.corpus.passageSet ?? UNKNOWN_SET;
  }

  async check(votes: readonly VoteToCheck[]): Promise<CheckedVote[]> {
    // One search per distinct question and model, however many votes share them.
    const firsts = new Map<string, Promise<readonly string[] | Verdict>>();
    const checked: CheckedVote[] = [];
    for (const vote of votes) {
      const question = normaliseQuery(vote.query);
      const passage = this.engine?.passageOf(vote.retrieved_text);
      const current = this.engine?.corpus.passageSet ?? UNKNOWN_SET;
      const passageSha256 = createHash('sha256').update(vote.retrieved_text.trim(), 'utf8').digest('hex');
      if (passage && passage.set !== current) {
        // Cast on an earlier cut of the book (a device that had it, delivering late): what its
        // model showed then cannot be computed now, and it is never judged by today's passages.
        checked.push({ questionId: questionId(vote.query), passageId: passage.id, passageSet: passage.set, passageSha256, verdict: this.known.has(vote.model_type) ? 'unchecked' : 'unknown-model' });
        continue;
      }
      const key = `${vote.model_type}\n${question}`;
      let shown = firsts.get(key);
      if (!shown) firsts.set(key, (shown = this.firstPassages(key, question, vote.model_type)));
      const passageId = passage?.id ?? null;
      const found = await shown;
      const verdict = typeof found === 'string' ? found : passageId !== null && found.includes(passageId) ? 'shown' : 'not-shown';
      checked.push({ questionId: questionId(vote.query), passageId, passageSet: current, passageSha256, verdict });
    }
    return checked;
  }

  /** The book's passage whose text this is, or null for a text that is none. */
  passageIdOf(text: string): string | null {
    return this.engine?.passageIdOf(text) ?? null;
  }

  /**
   * The model's first passages for the question (its normalised form), best first, or why there
   * are none to check by; kept in the LRU.
   */
  async ranked(question: string, model: string): Promise<readonly string[] | Verdict> {
    return this.firstPassages(`${model}\n${question}`, question, model);
  }

  /**
   * Where a vote's text stands: its passage (of whichever set carries it), the set it is judged
   * under (an earlier cut's, or the one served now) and the sha256 of its text.
   */
  placeOf(text: string): { passage: { set: string; id: string } | null; passageSet: string; passageSha256: string; earlier: boolean } {
    const passage = this.engine?.passageOf(text) ?? null;
    const current = this.passageSet();
    const passageSha256 = createHash('sha256').update(text.trim(), 'utf8').digest('hex');
    const earlier = passage !== null && passage.set !== current;
    return { passage, passageSet: earlier ? passage.set : current, passageSha256, earlier };
  }

  /** Whether `model` names a model this version of the service serves (under either lineup). */
  knows(model: string): boolean {
    return this.known.has(model);
  }

  /** Why a vote on an earlier cut of the book is not judged now: its model known (`unchecked`) or not. */
  notJudged(model: string): Verdict {
    return this.known.has(model) ? 'unchecked' : 'unknown-model';
  }

  /** The model's first passages for the question, or why there are none to check by. */
  private async firstPassages(key: string, question: string, model: string): Promise<readonly string[] | Verdict> {
    const cached = this.shown.get(key);
    if (cached) return cached;
    const unchecked = this.known.has(model) ? 'unchecked' : 'unknown-model';
    if (!this.engine) return unchecked;
    let ids: string[] | null;
    try {
      ids = await this.engine.firstPassageIds(question, model, SHOWN_RANKS);
    } catch (error) {
      if (error instanceof ModelUnavailableError) return 'unchecked';
      throw error;
    }
    // A name no model of this lineup carries is not cached: made-up names must not push out real questions.
    if (ids === null) return unchecked;
    this.shown.set(key, ids);
    return ids;
  }
}
