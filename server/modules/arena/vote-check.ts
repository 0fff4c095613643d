import type { Db } from '../../platform/store/db.ts';
import type { RetrievalEngine } from '../search/index.ts';
import { isRestoredModel } from '../../../common/search/query-models.ts';
import { normaliseQuery, questionId } from './question.ts';
import { readReceipt } from './receipt.ts';
import type { ShownCheck } from './shown-check.ts';
import { arenaSecret } from './sql/arena-secrets.ts';
import type { CheckedVote } from './sql/feedback.ts';

import { DEVICE_RECEIPT } from '../../../contract/vocabulary.ts';

export { DEVICE_RECEIPT };

/** A vote as checked: its question, the model and passage it names, and the receipt its search gave (absent from older clients). */
export interface VoteToCheck {
  query: string;
  model_type: string;
  retrieved_text: string;
  receipt?: string;
}

/** A drawn pair as stored with its votes: the two arms' names in order, one a line (the same whichever was drawn first). */
export const drawnPairOf = (a: string, b: string): string => [a, b].sort().join('\n');

/** The arena's secret that signs receipts: one per store, read once per process. */
const secrets = new WeakMap<Db, Promise<Buffer>>();
export function receiptSecret(db: Db): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = arenaSecret(db, 'receipt');
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

/** The arms a device answers with offline: the weight-free vector models (the offline pack's). */
export function deviceArms(engine: RetrievalEngine | null): string[] {
  if (!engine) return [];
  const arms = engine.pool();
  return engine.entries
    .filter((e) => 'index' in e && isRestoredModel(e.index.model))
    .map((e) => arms.find((a) => a.id === e.id)?.modelType)
    .filter((m): m is string => m !== undefined);
}

/**
 * Only what was shown counts (docs/arena.md): a vote counts only for its arm's first passage, in
 * a pair drawn for a search of its question. A vote from a search of the server proves it by the
 * search's receipt (receipt.ts), which must be the reader's own, unexpired, for this question,
 * name this vote's arm (a name no model carries is `unknown-model`) and, as that arm's first
 * passage, this vote's passage. A vote of a round
 * the device answered offline (receipt `device`) is checked by working it out again: its arm must
 * be one a device answers with, and its passage that arm's first for the question, by the same
 * query code the device ran (common/search). The verdict says why not, when not. A vote whose
 * text is a passage of an earlier cut of the book (`passage_set`) is never judged by today's
 * passages: it keeps `unchecked` (or `unknown-model`) under its own set.
 */
export class VoteCheck {
  constructor(
    private readonly db: Db,
    private readonly shown: ShownCheck,
    private readonly engine: RetrievalEngine | null,
  ) {}

  /** The set of passages this server checks votes by (the one it serves). */
  passageSet(): string {
    return this.shown.passageSet();
  }

  async check(author: string, votes: readonly VoteToCheck[], nowMs: number): Promise<CheckedVote[]> {
    const secret = votes.some((v) => v.receipt !== undefined && v.receipt !== DEVICE_RECEIPT) ? await receiptSecret(this.db) : null;
    const device = deviceArms(this.engine);
    const devicePair = device.length === 2 ? `device\n${drawnPairOf(device[0]!, device[1]!)}` : null;
    const checked: CheckedVote[] = [];
    for (const vote of votes) {
      const question = normaliseQuery(vote.query);
      const place = this.shown.placeOf(vote.retrieved_text);
      const drawnBy = vote.receipt === undefined ? null : vote.receipt === DEVICE_RECEIPT ? ('device' as const) : ('server' as const);
      if (place.earlier) {
        // Cast on an earlier cut of the book (a device that had it, delivering late): what was
        // shown then cannot be worked out now, and it is never judged by today's passages.
        const { passageSet, passageSha256 } = place;
        checked.push({ questionId: questionId(vote.query), passageId: place.passage!.id, passageSet, passageSha256, verdict: this.shown.notJudged(vote.model_type), drawnBy, drawnPair: null });
        continue;
      }
      const passageId = place.passage?.id ?? null;
      const base = { questionId: questionId(vote.query), passageId, passageSet: place.passageSet, passageSha256: place.passageSha256 };
      if (vote.receipt === undefined) {
        checked.push({ ...base, verdict: 'no-receipt', drawnBy: null, drawnPair: null });
      } else if (vote.receipt === DEVICE_RECEIPT) {
        checked.push({ ...base, ...(await this.deviceVerdict(question, vote.model_type, passageId, device, devicePair)) });
      } else {
        const reading = readReceipt(secret!, vote.receipt, Math.floor(nowMs / 1000));
        if (!reading.ok) {
          checked.push({ ...base, verdict: reading.reason, drawnBy: 'server', drawnPair: null });
          continue;
        }
        const { receipt } = reading;
        const arm = receipt.arms.indexOf(vote.model_type);
        const drawnPair = drawnPairOf(receipt.arms[0], receipt.arms[1]);
        const verdict =
          receipt.reader !== author ? 'other-reader'
          : arm < 0 && !this.shown.knows(vote.model_type) ? 'unknown-model'
          : receipt.question !== question || arm < 0 ? 'not-drawn'
          : passageId === null ? 'not-shown'
          : receipt.firsts[arm] !== passageId ? 'not-first'
          : 'shown';
        checked.push({ ...base, verdict, drawnBy: 'server', drawnPair });
      }
    }
    return checked;
  }

  /** A round the device drew: its arm one a device answers with, its passage that arm's first, worked out again here. */
  private async deviceVerdict(question: string, model: string, passageId: string | null, device: string[], devicePair: string | null) {
    const drawn = { drawnBy: 'device' as const, drawnPair: devicePair };
    if (!device.includes(model) || devicePair === null) return { ...drawn, verdict: 'not-drawn' as const };
    const ranked = await this.shown.ranked(question, model);
    if (typeof ranked === 'string') return { ...drawn, verdict: ranked };
    if (passageId === null || !ranked.includes(passageId)) return { ...drawn, verdict: 'not-shown' as const };
    return { ...drawn, verdict: ranked[0] === passageId ? ('shown' as const) : ('not-first' as const) };
  }
}
