import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInputsHash, isBuildCurrent } from '../../scripts/build-stamp.mjs';
import { freePort } from '../../scripts/server-process.ts';

/**
 * `npm start` until the server answers; everything it printed. `then` runs while it serves, with
 * npm's own process and the server's address.
 */
async function npmStart(dataDir: string, then?: (npm: ChildProcess, url: string) => Promise<void>): Promise<string> {
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
      if ((await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok) {
        await then?.(child, `http://127.0.0.1:${port}`);
        return output;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`npm start did not become ready:\n${output}`);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM'); // npm and the server it started
    } catch {
      // Already gone, all of them.
    }
    const ended = child.exitCode !== null || child.signalCode !== null;
    await new Promise((resolve) => (ended ? resolve(null) : child.once('exit', resolve)));
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

  it('stops the server when npm alone is told to stop, as a supervisor or a container runtime tells it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    let stillServing = true;
    await npmStart(dataDir, async (npm, url) => {
      npm.kill('SIGTERM');
      // The server drains and closes its port; before, it went on serving, orphaned, holding DATA_DIR.
      for (const deadline = Date.now() + 60_000; stillServing && Date.now() < deadline; ) {
        stillServing = (await fetch(`${url}/api/health`).catch(() => null)) !== null;
        await new Promise((r) => setTimeout(r, 200));
      }
    });
    expect(stillServing).toBe(false);
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
