import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/platform/config/config.ts';
import { DEFAULT_ARMS, parseArms } from '../../server/modules/search/models/arms.ts';
import { checkArenaArms, servableModelTypes } from '../../server/modules/search/models/lineup.ts';
import { corpusEngine, settingsFor } from './engine-helpers.ts';

const run = promisify(execFile);
const LSA = 'LSA tfidf-svd-96+lex-256+glove-100-wordnet+thesaurus+gloss';
const SIF = 'SIF ppmi-word-vectors-150+glove-100-wordnet+thesaurus+gloss';

describe('the pool’s arms from ARENA_ARMS', () => {
  it('stays exactly today’s pool without it: LSA, SIF and BM25, under today’s names', async () => {
    expect(parseArms(undefined)).toEqual(DEFAULT_ARMS);
    expect(servableModelTypes(await settingsFor())).toEqual(['BGE bge-small-en-v1.5', 'UAE UAE-Large-V1', LSA, SIF, 'BM25 minisearch']);
    // Saying today's pool in full changes nothing.
    const spelled = [{ kind: 'lsa', id: 'lsa-96' }, { kind: 'sif' }, { kind: 'bm25' }];
    expect(parseArms(spelled)).toEqual(DEFAULT_ARMS);
  });

  it.each([
    [{ kind: 'lsa' }, 'ARENA_ARMS must be a JSON list of arms, such as [{"kind": "lsa"}, {"kind": "sif"}, {"kind": "bm25"}]'],
    [[{ kind: 'lsa' }], 'ARENA_ARMS must name at least two arms, for the arena to compare (got 1)'],
    [[{ kind: 'lsa' }, 'sif'], 'ARENA_ARMS[1] must be an object such as {"kind": "lsa", "settings": {"gloss": 0}}'],
    [[{ kind: 'lsa' }, { kind: 'bge' }], 'ARENA_ARMS[1].kind must be lsa, sif or bm25 (got "bge")'],
    [[{ kind: 'lsa' }, { kind: 'sif', model: 'x' }], 'ARENA_ARMS[1] has "model", which is none of kind, id, settings'],
    [[{ kind: 'lsa', settings: { glosses: 0 } }, { kind: 'sif' }], 'ARENA_ARMS[0].settings has "glosses", which a lsa arm does not take (it takes dims, lexical, lexicalDims, wordnet, expansion, english, englishA, sentenceWeight, glossary, gloss, typos)'],
    [[{ kind: 'lsa', settings: { dims: 500 } }, { kind: 'sif' }], 'ARENA_ARMS[0].settings.dims must be a whole number from 2 to 160 (got 500)'],
    [[{ kind: 'lsa', settings: { gloss: -1 } }, { kind: 'sif' }], 'ARENA_ARMS[0].settings.gloss must be a number from 0 to 100 (got -1)'],
    [[{ kind: 'lsa' }, { kind: 'sif', settings: { a: 0 } }], 'ARENA_ARMS[1].settings.a must be a number above 0 and at most 1 (got 0)'],
    [[{ kind: 'lsa', settings: { typos: 'no' } }, { kind: 'sif' }], 'ARENA_ARMS[0].settings.typos must be true or false (got "no")'],
    [[{ kind: 'lsa' }, { kind: 'bm25', settings: { k: 1 } }], 'ARENA_ARMS[1].settings has "k", which a bm25 arm does not take (it takes none)'],
    [[{ kind: 'lsa' }, { kind: 'bm25', id: 'words' }], 'ARENA_ARMS[1]: the keyword arm\'s id is bm25 (got "words")'],
    [[{ kind: 'lsa', id: 'LSA 96!' }, { kind: 'sif' }], 'ARENA_ARMS[0].id must be 1 to 40 lower-case letters, digits, dots or hyphens, starting with a letter or digit (got "LSA 96!")'],
    [[{ kind: 'lsa' }, { kind: 'lsa', settings: { gloss: 0 } }], 'ARENA_ARMS[0] and ARENA_ARMS[1] have the same id "lsa-96": give each arm its own'],
  ])('refuses %j: %s', (value, message) => {
    expect(() => parseArms(value)).toThrow(message);
  });

  it('refuses two arms whose votes would carry one model_type', () => {
    const twins = [{ kind: 'lsa' }, { kind: 'lsa', id: 'lsa-96-exact', settings: { typos: false } }];
    expect(() => checkArenaArms(twins)).toThrow(`ARENA_ARMS: arms lsa-96 and lsa-96-exact would both be "${LSA}" in votes`);
    expect(() => checkArenaArms([{ kind: 'lsa' }, { kind: 'lsa', id: 'lsa-96-nogloss', settings: { gloss: 0 } }])).not.toThrow();
  });

  it('is read inline or from the file it names, and refused in one sentence when it is neither', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'arms-'));
    const file = path.join(dir, 'arms.json');
    await writeFile(file, '[{"kind": "lsa"}, {"kind": "bm25"}]');
    expect(loadConfig({ ARENA_ARMS: file }).arenaArms).toEqual([{ kind: 'lsa' }, { kind: 'bm25' }]);
    expect(loadConfig({ ARENA_ARMS: ' [{"kind": "sif"}, {"kind": "bm25"}] ' }).arenaArms).toEqual([{ kind: 'sif' }, { kind: 'bm25' }]);
    expect(loadConfig({}).arenaArms).toBeUndefined();
    expect(() => loadConfig({ ARENA_ARMS: '[{"kind": "lsa"},]' })).toThrow(ConfigError);
    expect(() => loadConfig({ ARENA_ARMS: '[{"kind": "lsa"},]' })).toThrow(/^ARENA_ARMS is not valid JSON: /);
    expect(() => loadConfig({ ARENA_ARMS: path.join(dir, 'missing.json') })).toThrow(
      `ARENA_ARMS must be a JSON list of arms or a file holding one, but ${path.join(dir, 'missing.json')} cannot be read (ENOENT)`,
    );
  });

  it('stops a start with the reason, before anything is opened', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'arms-start-'));
    const failed = await run(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, DATA_DIR: path.join(dataDir, 'data'), DATABASE_URL: '', ARENA_ARMS: '[{"kind": "lsa", "settings": {"dims": 1}}, {"kind": "sif"}]' },
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr.trim()).toBe('Configuration error: ARENA_ARMS[0].settings.dims must be a whole number from 2 to 160 (got 1)');
  }, 60_000);

  it('serves a gloss-free LSA beside the served one, to learn whether the glosses help readers', async () => {
    const engine = await corpusEngine({
      arenaArms: [{ kind: 'lsa' }, { kind: 'lsa', id: 'lsa-96-nogloss', settings: { gloss: 0 } }, { kind: 'sif' }, { kind: 'bm25' }],
    });
    expect(engine.pool().map((arm) => arm.id)).toEqual(['lsa-96', 'lsa-96-nogloss', 'sif-150', 'bm25']);
    const [plain] = await engine.search('the mirror of the heart', 1, 'lsa-96-nogloss');
    expect(plain).toMatchObject({ model: 'lsa-96-nogloss', model_type: 'LSA tfidf-svd-96+lex-256+glove-100-wordnet+thesaurus' });
    expect((await engine.search('the mirror of the heart', 1, 'lsa-96'))[0]).toMatchObject({ model: 'lsa-96', model_type: LSA });
    // Without BM25 in the list, the pool has no keyword arm.
    const vectors = await corpusEngine({ arenaArms: [{ kind: 'sif' }, { kind: 'lsa' }] });
    expect(vectors.pool().map((arm) => arm.id)).toEqual(['sif-150', 'lsa-96']);
  }, 240_000);
});
