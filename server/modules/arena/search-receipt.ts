import type { Db } from '../../platform/store/db.ts';
import type { RetrievalEngine } from '../search/index.ts';
import { normaliseQuery } from './question.ts';
import { RECEIPT_TTL_SECONDS, signReceipt } from './receipt.ts';
import { receiptSecret } from './vote-check.ts';

/**
 * A drawn search's receipt (receipt.ts): for `reader`, the normalised question, the two arms
 * drawn (`models`, by id, named as votes name them) and `firsts`, each arm's first passage,
 * accepted for RECEIPT_TTL_SECONDS from `nowMs`. Every result of the search carries it.
 */
export async function drawnReceipt(
  db: Db,
  reader: string,
  query: string,
  engine: RetrievalEngine,
  models: readonly string[],
  firsts: readonly (string | null)[],
  nowMs: number,
): Promise<string> {
  const typeOf = new Map(engine.pool().map((arm) => [arm.id, arm.modelType]));
  const arms = models.map((id) => typeOf.get(id) ?? id) as [string, string];
  return roundReceipt(db, reader, query, arms, [firsts[0] ?? null, firsts[1] ?? null], nowMs);
}

/** The receipt a search of `query` by `reader` would carry, the pair `arms` drawn and `firsts` their first passages (the simulation and the load script play searches so). */
export async function roundReceipt(db: Db, reader: string, query: string, arms: readonly [string, string], firsts: readonly [string | null, string | null], nowMs: number): Promise<string> {
  return signReceipt(await receiptSecret(db), { reader, question: normaliseQuery(query), arms, firsts, expires: Math.floor(nowMs / 1000) + RECEIPT_TTL_SECONDS });
}
