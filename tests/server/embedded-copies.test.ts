import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedTemplate, embeddedImage, openEmbeddedDb, openEmbeddedDbFromImage } from '../../server/platform/store/db.ts';
import { writableByOthers } from '../fixtures/file-modes.ts';
import { systemIdentifier } from '../fixtures/pg-control.ts';
import { openTestDb } from './harness.ts';

describe('embedded databases made as copies', () => {
  const setting = process.env.EMBEDDED_TEMPLATE_DIR;
  afterEach(() => {
    if (setting === undefined) delete process.env.EMBEDDED_TEMPLATE_DIR;
    else process.env.EMBEDDED_TEMPLATE_DIR = setting;
  });

  it('opens a store in memory as a copy of an image: all the image held, and nothing one copy writes reaches another', async () => {
    const source = await openTestDb('embedded');
    await source.db.query('CREATE TABLE kept (n int)');
    await source.db.query('INSERT INTO kept VALUES (1), (2)');
    const image = await embeddedImage(source.db);
    await source.drop();

    const [first, second] = [await openEmbeddedDbFromImage(image), await openEmbeddedDbFromImage(image)];
    try {
      await first.query('INSERT INTO kept VALUES (3)');
      expect(await first.query('SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 3 }]);
      expect(await second.query('SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 2 }]);
      // Migrated as the image was: the copies' schema is the source's.
      expect((await second.query<{ name: string }>('SELECT name FROM schema_migrations')).length).toBeGreaterThan(0);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);

  it('makes a new data folder as a copy of the one EMBEDDED_TEMPLATE_DIR names, closed to others; where it names none, by initdb', async () => {
    const template = path.join(await mkdtemp(path.join(tmpdir(), 'template-')), 'pgdata');
    await createEmbeddedTemplate(template);
    process.env.EMBEDDED_TEMPLATE_DIR = template;
    const copied = path.join(await mkdtemp(path.join(tmpdir(), 'copied-')), 'pgdata');
    await (await openEmbeddedDb(copied)).close();
    expect(await systemIdentifier(copied)).toBe(await systemIdentifier(template));
    expect(await writableByOthers(copied)).toEqual([]);

    // Run from the sources, there is no build's template beside server/platform/store/db.ts.
    delete process.env.EMBEDDED_TEMPLATE_DIR;
    const made = path.join(await mkdtemp(path.join(tmpdir(), 'made-')), 'pgdata');
    const db = await openEmbeddedDb(made);
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await db.close();
    expect(await systemIdentifier(made)).not.toBe(await systemIdentifier(template));
  }, 120_000);
});
