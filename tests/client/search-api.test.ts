import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { searchPassages } from '../../src/features/search/search-api.ts';
import { searchFailed } from '../../src/features/search/use-search.ts';
import { PORTAL_PAGE, startStandInPortal } from '../fixtures/stand-in-portal.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

describe('a failed search, in the words the reader is shown', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('embedded');
  });
  afterAll(() => server.close());

  it('says the server’s detail when it gives one', async () => {
    setApiBase(`${server.url}/api`);
    const failure = await searchPassages('x'.repeat(5000), 'both').catch((error: unknown) => error);
    expect(searchFailed('x', failure).error).toMatch(/query/i);
    // The question itself was refused: asking it again would not help, and no Retry is offered.
    expect(searchFailed('x', failure).retryable).toBe(false);
  });

  it('says "Search failed" when no server answers, not the browser’s words nor the sign-in’s', async () => {
    setApiBase('http://127.0.0.1:1/api');
    const failure = await searchPassages('the heart as a mirror', 'both').catch((error: unknown) => error);
    expect(searchFailed('the heart as a mirror', failure).error).toBe('Search failed');
    expect(searchFailed('the heart as a mirror', failure).retryable).toBe(true);
  });

  it('says "Search failed" when a captive portal answers with its own page, not the JSON parser’s words', async () => {
    const portal = await startStandInPortal(() => PORTAL_PAGE);
    try {
      setApiBase(portal.api);
      const failure = await searchPassages('the heart as a mirror', 'both').catch((error: unknown) => error);
      expect(searchFailed('the heart as a mirror', failure).error).toBe('Search failed');
    } finally {
      portal.close();
    }
  });
});
