import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openPostgresDb } from '../../server/platform/store/db.ts';
import {
  databaseLabel,
  databaseRetryDelay,
  DatabaseUnreachableError,
  untilDatabaseAnswers,
} from '../../server/platform/store/wait-for-database.ts';
import { freePort } from '../../scripts/server-process.ts';

/** A clock the waits move forward, so that a 60 s wait takes no time. */
function fakeClock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe('a start waiting for its PostgreSQL', () => {
  it('tries again after 0.5 s, doubling, never more than 5 s apart', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => databaseRetryDelay(n))).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('names where the database is, never who connects or with what password', () => {
    expect(databaseLabel('postgres://app:s3cret@db.internal:6432/alchemy')).toBe('db.internal:6432/alchemy');
    expect(databaseLabel('postgres://app:s3cret@db/alchemy')).toBe('db:5432/alchemy');
    expect(databaseLabel('not a url s3cret')).toBe('the database');
  });

  it('goes on once a database that refused connections answers, having said so each time', async () => {
    const port = await freePort();
    const clock = fakeClock();
    const said: string[] = [];
    let attempts = 0;
    const result = await untilDatabaseAnswers(
      `127.0.0.1:${port}/x`,
      async () => {
        attempts++;
        // Nothing listens on the port: the driver's own "connection refused", three times over.
        if (attempts <= 3) await openPostgresDb(`postgres://u:p@127.0.0.1:${port}/x`);
        return 'open';
      },
      { waitMs: 60_000, onRetry: (_, delay, failures) => said.push(`${failures}: ${delay}`), ...clock },
    );
    expect(result).toBe('open');
    expect(said).toEqual(['1: 500', '2: 1000', '3: 2000']);
  });

  it('gives up after the wait, saying where and why in one sentence', async () => {
    const port = await freePort();
    const clock = fakeClock();
    const failure = untilDatabaseAnswers(`127.0.0.1:${port}/x`, () => openPostgresDb(`postgres://u:p@127.0.0.1:${port}/x`), {
      waitMs: 10_000,
      onRetry: () => undefined,
      ...clock,
    });
    await expect(failure).rejects.toThrow(DatabaseUnreachableError);
    await expect(failure).rejects.toThrow(`PostgreSQL at 127.0.0.1:${port}/x did not answer within 10 s (connect ECONNREFUSED 127.0.0.1:${port})`);
    expect(clock.now()).toBe(10_000); // the last wait is cut to the deadline
  });

  it('does not wait on what waiting cannot mend: the server refusing the connection', async () => {
    // A server that answers, but with PostgreSQL's own refusal of the start-up message.
    const port = await freePort();
    const refusing = createServer((socket) => {
      socket.once('data', () => {
        const fields = 'SFATAL\0C28P01\0Mpassword authentication failed for user "u"\0\0';
        const body = Buffer.from(fields, 'utf8');
        const header = Buffer.alloc(5);
        header.write('E', 0);
        header.writeInt32BE(body.length + 4, 1);
        socket.end(Buffer.concat([header, body]));
      });
    });
    await new Promise<void>((resolve) => refusing.listen(port, '127.0.0.1', resolve));
    let retries = 0;
    try {
      await expect(
        untilDatabaseAnswers('x', () => openPostgresDb(`postgres://u:p@127.0.0.1:${port}/x`), {
          waitMs: 60_000,
          onRetry: () => retries++,
          ...fakeClock(),
        }),
      ).rejects.toMatchObject({ code: '28P01' });
      expect(retries).toBe(0);
    } finally {
      refusing.close();
    }
  });
});
