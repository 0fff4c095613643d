import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInputsHash, isBuildCurrent } from '../../scripts/build-stamp.mjs';
import { freePort } from './server-process.ts';

/** `npm start` until the server answers; everything it printed. */
async function npmStart(dataDir: string): Promise<string> {
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', DEMO_PASSWORD: 'demo password 1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (const deadline = Date.now() + 240_000; Date.now() < deadline; ) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
      if ((await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok) return output;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`npm start did not become ready:\n${output}`);
  } finally {
    process.kill(-child.pid!, 'SIGTERM'); // npm and the server it started
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
}

describe('npm start', () => {
  it('builds when there is no current build, and not again on the next start', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    await rm('dist/.build-stamp', { force: true });
    expect(isBuildCurrent()).toBe(false);
    const first = await npmStart(dataDir);
    expect(first).toContain('Sources changed since the last build (or there is none): building.');
    expect(first).toContain('server built: dist-server/main.js');
    expect(isBuildCurrent()).toBe(true);

    const second = await npmStart(dataDir);
    expect(second).toContain('The build is current');
    expect(second).not.toContain('server built');
  }, 300_000);

  it('tells a changed input from an unchanged one', () => {
    const hash = buildInputsHash();
    expect(buildInputsHash()).toBe(hash);
    process.env.VITE_SOURCE_URL = 'https://example.org/another-repository';
    try {
      expect(buildInputsHash()).not.toBe(hash);
    } finally {
      delete process.env.VITE_SOURCE_URL;
    }
  });

  it('counts a change to the API schemas the client and the server share', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'build-inputs-'));
    try {
      await mkdir(path.join(base, 'contract'));
      await writeFile(path.join(base, 'contract', 'api-schemas.ts'), 'export const limit = 1;');
      const hash = buildInputsHash(base);
      await writeFile(path.join(base, 'contract', 'api-schemas.ts'), 'export const limit = 2;');
      expect(buildInputsHash(base)).not.toBe(hash);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
