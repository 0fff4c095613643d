import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetrievalEngine, type SearchResult } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

type Result = SearchResult;

describe('POST /api/search', () => {
  let server: TestServer;
  let engine: RetrievalEngine;
  const clock = { now: Date.now() };

  beforeAll(async () => {
    engine = await corpusEngine();
    server = await startTestServer('embedded', {
      extra: { engine, searchRateLimit: 30, now: () => clock.now },
    });
  });
  afterAll(() => server.close());

  const search = (body: unknown) => server.api('/api/search', { json: body });

  it('counts a vote for a model it served in the statistics, and not one for a name a reader made up', async () => {
    await server.addUser('voter', 'voter password 1');
    const { access_token: token } = (await (await server.login('voter', 'voter password 1')).json()) as { access_token: string };
    // The two arms drawn for this reader's search, whichever they are; its votes copy its receipt.
    const drawn = await server.api('/api/search', { json: { query: 'the lamp of the heart', top_k: 1 }, token });
    const [first, second] = (await drawn.json()) as Result[];
    const vote = (round: string, label: 'A' | 'B', model_type: string, reaction: string, text: string) => ({
      user_type: 'Enthusiast', username: 'voter', query: 'the lamp of the heart', retrieved_text: text, model_type,
      result_label: label, reaction, confidence_score: 0.5, client_id: crypto.randomUUID(), round_id: round, receipt: first!.receipt,
    });
    const served = crypto.randomUUID();
    const madeUp = crypto.randomUUID();
    const saved = await server.api('/api/save', {
      token,
      json: {
        items: [
          vote(served, 'A', first!.model_type, '👍', first!.text),
          vote(served, 'B', second!.model_type, '🤷', second!.text),
          vote(madeUp, 'A', 'Visit https://evil.example to claim your prize', '👍', 'x'),
          vote(madeUp, 'B', second!.model_type, '👎', second!.text),
        ],
      },
    });
    expect(await saved.json()).toEqual({ saved: 4, duplicates: 0 });
    const stats = (await (await server.api('/api/stats', { token })).json()) as { votes: number; leftOut: number; models: Array<{ model: string }> };
    expect(stats.models.map((m) => m.model).sort()).toEqual([first!.model_type, second!.model_type].sort());
    // The made-up name left out; The second arm's second vote on the same passage for the same question replaces its first.
    expect(stats).toMatchObject({ votes: 2, leftOut: 2, leftOutVotes: { unknownModel: 1, repeat: 1, notShown: 0, unchecked: 0 } });
  });

  it('answers with two drawn models’ best passages, interleaved, three each by default', async () => {
    const res = await search({ query: 'What is the key to the knowledge of God?' });
    expect(res.status).toBe(200);
    const results = (await res.json()) as Result[];
    expect(results).toHaveLength(6);
    const [one, two] = [results[0]!.model, results[1]!.model];
    expect(one).not.toBe(two);
    expect(['lsa-96', 'sif-150', 'bm25']).toEqual(expect.arrayContaining([one, two]));
    expect(results.map((r) => [r.model, r.rank])).toEqual([
      [one, 1], [two, 1], [one, 2], [two, 2], [one, 3], [two, 3],
    ]);
    // The passage whose first sentence this is; LSA ranks it third since general English joined
    // (ch2-3 and ch1-3 also speak of knowing God and oneself).
    const lsa = (await (await search({ query: 'What is the key to the knowledge of God?', models: 'lsa-96' })).json()) as Result[];
    const keyPassage = lsa.find((r) => r.id === 'ch1-1');
    expect(keyPassage).toMatchObject({ chapter: 'Chapter I: The Knowledge of Self', model_type: 'LSA tfidf-svd-96+lex-256+glove-100-wordnet+thesaurus+gloss' });
    expect(keyPassage!.text.startsWith('KNOWLEDGE of self is the key to the knowledge of God')).toBe(true);
    for (const model of [one, two]) {
      const sims = results.filter((r) => r.model === model).map((r) => r.similarity);
      expect([...sims].sort((a, b) => b - a)).toEqual(sims);
      expect(sims.every((s) => s > -1 && s <= 1)).toBe(true);
    }
    expect(typeof results[0]!.passage_index).toBe('number');
  });

  it('marks in every result the sentence that best matches the question, by the same model', async () => {
    const results: Result[] = [];
    for (const models of ['lsa-96', 'sif-150', 'bm25']) {
      results.push(...((await (await search({ query: 'blind men and the elephant', top_k: 3, models })).json()) as Result[]));
    }
    expect(results).toHaveLength(9);
    for (const r of results) {
      expect(r.highlight, r.id).toBeDefined();
      const { start, end } = r.highlight!;
      expect(0 <= start && start < end && end <= r.text.length).toBe(true);
      const sentence = r.text.slice(start, end);
      expect(sentence).toMatch(/^["“‘(]?[A-Z0-9]/);
      expect(sentence).toMatch(/[.!?;:"”’)]$/);
    }
    for (const model of ['lsa-96', 'bm25']) {
      const best = results.find((r) => r.model === model && r.rank === 1)!;
      expect(best.text.slice(best.highlight!.start, best.highlight!.end), model).toContain('some blind men, hearing that an elephant');
    }
  });

  it('finds the one passage that names what the reader asks, from every model', async () => {
    for (const model of ['lsa-96', 'sif-150', 'bm25']) {
      const own = (await (await search({ query: 'Harut and Marut', top_k: 3, models: model })).json()) as Result[];
      expect(own, model).toHaveLength(3);
      expect(own.some((r) => r.text.includes('Harut and Marut')), model).toBe(true);
    }
  });

  it('honours top_k and a single model', async () => {
    const one = (await (await search({ query: 'the patient man', top_k: 1 })).json()) as Result[];
    expect(one).toHaveLength(2);
    expect(one[0]!.model).not.toBe(one[1]!.model);
    const sif = (await (await search({ query: 'patience', top_k: 5, models: 'sif-150' })).json()) as Result[];
    expect(sif).toHaveLength(5);
    expect(new Set(sif.map((r) => r.model))).toEqual(new Set(['sif-150']));
  });

  it('returns nothing for a query that shares no meaning with the book', async () => {
    const res = await search({ query: 'xylophone quasar' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it('trims the query', async () => {
    const padded = (await (await search({ query: '   patience  ', models: 'lsa-96' })).json()) as Result[];
    const plain = (await (await search({ query: 'patience', models: 'lsa-96' })).json()) as Result[];
    expect(plain).toHaveLength(3);
    expect(padded).toEqual(plain);
  });

  it('limits the query as trimmed: 1,000 characters with spaces around them are searched', async () => {
    expect((await search({ query: `     ${'patience '.repeat(111)}x     ` })).status).toBe(200);
    expect((await search({ query: ` ${'q'.repeat(1001)} ` })).status).toBe(400);
  });

  it.each([
    [{ query: '' }, 'Query must not be empty'],
    [{ query: '   \n ' }, 'Query must not be empty'],
    [{}, 'query is required'],
    [{ query: 42 }, 'query must be a string'],
    [{ query: 'q'.repeat(1001) }, 'query must be at most 1000 characters'],
    [{ query: 'love', top_k: 0 }, 'top_k must be at least 1'],
    [{ query: 'love', top_k: 11 }, 'top_k must be at most 10'],
    [{ query: 'love', top_k: 2.5 }, 'top_k must be a whole number'],
    [{ query: 'love', top_k: '3' }, 'top_k must be a whole number'],
    [{ query: 'love', models: 'gpt' }, 'models must be both or one of lsa-96, sif-150, bm25'],
  ])('answers 400 for %j: %s', async (body, detail) => {
    const res = await search(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail });
  });

  it('needs no token', async () => {
    expect((await search({ query: 'love' })).status).toBe(200);
  });

  it('limits searches per address with 429 and Retry-After, then lets them through in the next minute', async () => {
    clock.now += 60_000;
    for (let i = 0; i < 30; i++) expect((await search({ query: `love ${i}` })).status).toBe(200);
    const limited = await search({ query: 'one too many' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { detail: string }).detail).toMatch(/^Too many searches\. Try again in \d+ seconds\.$/);
    clock.now += 60_000;
    expect((await search({ query: 'love' })).status).toBe(200);
  });

  it('names the lineup in /api/health', async () => {
    const health = (await (await server.api('/api/health')).json()) as Record<string, unknown>;
    expect(health).toMatchObject({
      status: 'ok',
      lineup: 'corpus',
      corpus: { title: 'The Alchemy of Happiness', chapters: 11, passages: 169 },
      models: [
        { id: 'lsa-96', family: 'LSA', dim: 96 + 256 + 100, passages: 169, status: 'ready' },
        { id: 'sif-150', family: 'SIF', dim: 150 + 100, passages: 169, status: 'ready' },
        // The keyword arm: its dimension is the book's vocabulary.
        { id: 'bm25', family: 'BM25', name: 'minisearch', passages: 169, status: 'ready' },
      ],
    });
  });
});

describe('POST /api/search with a model that cannot be served', () => {
  let server: TestServer;

  let alone: TestServer;
  const broken = { id: 'uae-large-v1', family: 'UAE', name: 'UAE-Large-V1', dim: 1024, error: 'weights are corrupt' };

  beforeAll(async () => {
    const healthy = await corpusEngine();
    const [lsa, sif] = healthy.entries;
    server = await startTestServer('embedded', { extra: { engine: new RetrievalEngine(healthy.corpus, 'neural', [lsa!, sif!, broken]) } });
    alone = await startTestServer('embedded', { extra: { engine: new RetrievalEngine(healthy.corpus, 'neural', [lsa!, broken]) } });
  });
  afterAll(async () => {
    await server.close();
    await alone.close();
  });

  it('answers 503 naming the model when asked for it, and says so in health', async () => {
    const res = await server.api('/api/search', { json: { query: 'love', models: 'uae-large-v1' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: 'The UAE UAE-Large-V1 model cannot be served right now' });
    const health = (await (await server.api('/api/health')).json()) as { status: string };
    expect(health.status).toBe('degraded');
  });

  it('never draws it for a search of both: the pair comes from the models that can be served', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await server.api('/api/search', { json: { query: `love ${i}`, top_k: 1 } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Result[]).map((r) => r.model).sort()).toEqual(['lsa-96', 'sif-150']);
    }
  });

  it('answers 503 to a search of both when fewer than two models can be served, and serves the healthy one alone', async () => {
    const res = await alone.api('/api/search', { json: { query: 'love' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: 'Fewer than two models can be served right now' });
    expect((await alone.api('/api/search', { json: { query: 'love', models: 'lsa-96' } })).status).toBe(200);
  });
});

describe('GET /api/passages/:id/context', () => {
  let server: TestServer;

  beforeAll(async () => {
    const engine = await corpusEngine();
    server = await startTestServer('embedded', { extra: { engine } });
  });
  afterAll(() => server.close());

  it('returns the passage with its neighbours in the same chapter', async () => {
    const res = await server.api('/api/passages/ch2-9/context');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { chapter: string; passages: Array<{ id: string }> };
    expect(body.chapter).toBe('Chapter II: The Knowledge of God');
    expect(body.passages.map((p) => p.id)).toEqual(['ch2-7', 'ch2-8', 'ch2-9', 'ch2-10', 'ch2-11']);
  });

  it('stops at the chapter’s edge', async () => {
    const body = (await (await server.api('/api/passages/ch1-1/context')).json()) as { passages: Array<{ id: string }> };
    expect(body.passages.map((p) => p.id)).toEqual(['ch1-1', 'ch1-2', 'ch1-3']);
  });

  it('says how many more passages of the chapter lie either side, and gives more on one side only when asked', async () => {
    const context = async (query: string) =>
      (await (await server.api(`/api/passages/ch1-17/context?${query}`)).json()) as { passages: Array<{ id: string }>; more_before: number; more_after: number };
    // Chapter I has 20 passages: ch1-17 has 16 before it and 3 after.
    expect(await context('radius=3')).toMatchObject({ more_before: 13, more_after: 0 });
    const later = await context('before=3&after=10');
    expect(later.passages.map((p) => p.id)).toEqual(['ch1-14', 'ch1-15', 'ch1-16', 'ch1-17', 'ch1-18', 'ch1-19', 'ch1-20']);
    const earlier = await context('before=12&after=1');
    expect(earlier.passages[0]!.id).toBe('ch1-5');
    expect(earlier).toMatchObject({ more_before: 4, more_after: 2 });
    // The whole chapter, from either end, is within reach.
    expect((await context('before=50&after=50')).passages).toHaveLength(20);
    expect((await server.api('/api/passages/ch1-17/context?before=51')).status).toBe(400);
  });

  it('answers 404 for an unknown passage', async () => {
    const res = await server.api('/api/passages/ch99-1/context');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'No passage with id ch99-1' });
  });
});
