import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../../platform/store/db.ts';

/**
 * The arena's secret named `name`, made once (256 bits from a CSPRNG) and kept in the store, so
 * that every instance and every export uses the same one: the first caller's stands.
 */
export async function arenaSecret(db: Queryable, name: string): Promise<Buffer> {
  const [row] = await db.query<{ secret: string }>(
    `WITH made AS (INSERT INTO arena_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING secret)
     SELECT secret FROM made UNION ALL SELECT secret FROM arena_secrets WHERE name = $1`,
    [name, randomBytes(32).toString('base64url')],
  );
  return Buffer.from(row!.secret, 'base64url');
}
