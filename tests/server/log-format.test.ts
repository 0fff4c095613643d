// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { createLogger, OPERATOR_DETAIL, textDestination, textLine } from '../../server/platform/log.ts';
import { terminalProgress } from '../../server/platform/util/progress.ts';

describe('log lines for a person at a terminal (LOG_FORMAT=text)', () => {
  it('are the message, after the level when it is worse than info, with an error’s message or a request’s outcome', () => {
    const written: string[] = [];
    const log = createLogger('info', textDestination({ write: (line: string) => written.push(line) > 0 }));
    log.info({ lineup: 'corpus' }, 'model lineup: corpus');
    log.warn({ err: new Error('disk full') }, 'the vectors could not be cached');
    log.info({ req: { method: 'GET', url: '/api/health?token=x' }, statusCode: 200, ms: 1.5 }, 'request completed');
    expect(written).toEqual(['model lineup: corpus\n', 'warning: the vectors could not be cached: disk full\n', 'GET /api/health 200 (1.5 ms)\n']);
  });

  it('leave out an operator’s details at info, which the JSON format keeps, and never a warning', () => {
    const text: string[] = [];
    const json: string[] = [];
    for (const [log, out] of [
      [createLogger('info', textDestination({ write: (line: string) => text.push(line) > 0 })), text],
      [createLogger('info', { write: (line: string) => void json.push(line) }), json],
    ] as const) {
      log.info({ ...OPERATOR_DETAIL, database: 'embedded' }, 'store ready');
      log.info('Server listening at http://127.0.0.1:8080');
      log.info({ lineup: 'corpus' }, 'model lineup: corpus');
      log.warn({ ...OPERATOR_DETAIL }, 'the vectors could not be cached');
      expect(out.length).toBeGreaterThan(0);
    }
    expect(text).toEqual(['model lineup: corpus\n', 'warning: the vectors could not be cached\n']);
    expect(json.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'store ready',
      'Server listening at http://127.0.0.1:8080',
      'model lineup: corpus',
      'the vectors could not be cached',
    ]);
  });

  it('pass a line that is not JSON through as it is', () => {
    expect(textLine('plain words')).toBe('plain words\n');
  });
});

describe('progress where the output is not a terminal', () => {
  it('is one line when the work is done, however many steps it took', () => {
    const written: string[] = [];
    const progress = terminalProgress('Embedding the book', 1000, { isTTY: false, write: (text: string) => written.push(text) > 0 });
    for (let done = 1; done <= 1000; done++) progress.update(done);
    progress.finish('1000 passages');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^Embedding the book: done in \d+\.\d s \(1000 passages\)\n$/);
  });
});
