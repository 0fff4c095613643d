// Starts no server, store or engine: it does not wait for the run's fixtures.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/platform/config/config.ts';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('settings checked before the server starts', () => {
  it('takes a PostgreSQL URL in the forms the driver reads, and refuses a malformed one without repeating it (it holds the password)', () => {
    for (const url of [
      'postgres://app:s%23cret@db.internal:6432/alchemy',
      'postgresql://app@db/alchemy?sslmode=require',
      'postgres:///alchemy?host=/var/run/postgresql',
      'postgres://app:pw@/alchemy?host=/sock',
      'socket:/var/run/postgresql?db=alchemy',
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    for (const url of [
      'not a url',
      'postgres://app:2024#Spring@127.0.0.1:5432/db', // the rest of the password became a fragment
      'postgres://app:Sx9k/Q@127.0.0.1:5432/db',
      'postgres://app:pw@127.0.0.1:99999/db',
      'mysql://app:pw@127.0.0.1/db',
    ]) {
      const message = refused({ DATABASE_URL: url });
      expect(message).toMatch(/^DATABASE_URL is not a valid PostgreSQL URL/);
      expect(message).not.toMatch(/Spring|Sx9k|2024/);
    }
  });

  it('refuses ports out of range, and metrics on the public port', () => {
    expect(refused({ PORT: '99999' })).toBe('PORT must be a whole number from 0 to 65535 (got "99999")');
    expect(refused({ METRICS_PORT: '70000' })).toBe('METRICS_PORT must be a whole number from 1 to 65535 (got "70000")');
    expect(refused({ VOTE_RATE_LIMIT: '20' })).toBe('VOTE_RATE_LIMIT must be 0 (no limit) or at least 50, one batch of votes (got "20")');
    expect(refused({ PORT: '8080', METRICS_PORT: '8080' })).toMatch(/^METRICS_PORT must differ from PORT/);
  });

  it('counts 30 decided rounds a reader a day in the arena unless ARENA_DAILY_ROUNDS says otherwise, and at least one', () => {
    expect(loadConfig({}).dailyRoundBound).toBe(30);
    expect(loadConfig({ ARENA_DAILY_ROUNDS: '5' }).dailyRoundBound).toBe(5);
    expect(refused({ ARENA_DAILY_ROUNDS: '0' })).toBe('ARENA_DAILY_ROUNDS must be a whole number of at least 1 (got "0")');
  });

  it('takes a number only as digits, and a setting only in its range', () => {
    for (const port of ['1e3', ' 8080', '0x10', '80.0', '+80', '-1']) {
      expect(refused({ PORT: port })).toBe(`PORT must be a whole number from 0 to 65535 (got "${port}")`);
    }
    expect(refused({ SEARCH_RATE_LIMIT: '0x10' })).toBe('SEARCH_RATE_LIMIT must be a whole number of at least 0 (got "0x10")');
    expect(refused({ SEARCH_RATE_LIMIT: '99999999999999999999' })).toMatch(/^SEARCH_RATE_LIMIT must be a whole number/);
    expect(refused({ ACCESS_TOKEN_TTL_SECONDS: '99999999999999' })).toBe('ACCESS_TOKEN_TTL_SECONDS must be a whole number from 10 to 86400 (got "99999999999999")');
    expect(loadConfig({ PORT: '8081', ACCESS_TOKEN_TTL_SECONDS: '86400' })).toMatchObject({ port: 8081, accessTokenTtlSeconds: 86400 });
  });

  it('reads TRUST_PROXY as false, true or a count of proxies only, and LOG_LEVEL as one of pino’s levels', () => {
    expect(refused({ TRUST_PROXY: 'yes' })).toBe(
      'TRUST_PROXY must be false, true, or how many proxies stand in front of the server, 0 to 10 (got "yes")',
    );
    for (const raw of ['11', '-1', '1.5', '1e1', '0x2']) expect(refused({ TRUST_PROXY: raw })).toMatch(/^TRUST_PROXY must be/);
    expect(loadConfig({ TRUST_PROXY: 'TRUE' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(refused({ LOG_LEVEL: 'verbose' })).toMatch(/^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  });

});

describe('the book', () => {
  it('ships with the project: by default the server reads corpus/ at the package root, from any working folder', async () => {
    const { existsSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '../..');
    const expected = path.join(root, 'corpus/alchemy-of-happiness.md');
    expect(existsSync(expected)).toBe(true);
    expect(loadConfig({}).corpusFile).toBe(expected);
    // The built server's modules sit one or two folders below the root (dist-server/, its chunks/).
    const { shippedBookFile } = await import('../../server/platform/config/book-file.ts');
    expect(shippedBookFile(path.join(root, 'dist-server/chunks'))).toBe(expected);
    expect(loadConfig({ CORPUS_FILE: '/elsewhere/book.md' }).corpusFile).toBe('/elsewhere/book.md');
  });
});

describe('the settings’ documentation', () => {
  it('lists every setting the server reads in docs/configuration.md’s table', () => {
    const source = readFileSync('server/platform/config/config.ts', 'utf8');
    const read = new Set([...source.matchAll(/env\.([A-Z][A-Z0-9_]+)|Setting\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] ?? m[2]!));
    expect(read.size).toBeGreaterThan(20);
    expect(read).toContain('ARENA_DAILY_ROUNDS');
    const table = readFileSync('docs/configuration.md', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .join('\n');
    const missing = [...read].filter((name) => !table.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
