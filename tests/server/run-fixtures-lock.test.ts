// Starts no server, store or engine: it does not wait for the run's fixtures.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeOnce } from '../run-fixtures.ts';

/** Makes the fixtures as prepare-run.ts would, slowly enough for others to ask meanwhile, and counts its runs. */
function countingMaker(fails = false) {
  const made: string[] = [];
  const make = async (into: string) => {
    made.push(into);
    await mkdir(into);
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (fails) throw new Error('fitting failed');
    await writeFile(path.join(into, 'ready'), '');
  };
  return { made, make };
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe("the run's fixtures, made by whichever test needs them first", () => {
  const made: string[] = [];
  afterEach(async () => {
    for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  async function cacheFolder(): Promise<{ cache: string; folder: string }> {
    const cache = await mkdtemp(path.join(tmpdir(), 'fixtures-lock-'));
    made.push(cache);
    return { cache, folder: path.join(cache, 'hash') };
  }

  it('are made once when several workers ask at once, and left whole with no lock behind', async () => {
    const { cache, folder } = await cacheFolder();
    const maker = countingMaker();
    await Promise.all([makeOnce(folder, maker.make), makeOnce(folder, maker.make), makeOnce(folder, maker.make)]);
    expect(maker.made).toHaveLength(1);
    expect(existsSync(path.join(folder, 'ready'))).toBe(true);
    expect(await readdir(cache)).toEqual(['hash']);
    await makeOnce(folder, maker.make);
    expect(maker.made).toHaveLength(1);
  });

  it('are made by the next worker when the one that took the lock died', async () => {
    const { cache, folder } = await cacheFolder();
    await mkdir(`${folder}.lock`);
    await writeFile(path.join(`${folder}.lock`, 'pid'), String(await deadPid()));
    const maker = countingMaker();
    await makeOnce(folder, maker.make);
    expect(maker.made).toHaveLength(1);
    expect(await readdir(cache)).toEqual(['hash']);
  });

  it('leave nothing half made when making them fails, and the next try makes them', async () => {
    const { cache, folder } = await cacheFolder();
    await expect(makeOnce(folder, countingMaker(true).make)).rejects.toThrow('fitting failed');
    expect(await readdir(cache)).toEqual([]);
    const maker = countingMaker();
    await makeOnce(folder, maker.make);
    expect(existsSync(path.join(folder, 'ready'))).toBe(true);
  });
});
