import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInputsHash, isBuildCurrent } from '../../scripts/build-stamp.mjs';
import { REPO_ROOT } from '../../scripts/start-command.ts';
import { prefittedDataDir } from '../run-fixtures.ts';
import { freePort } from './server-process.ts';

/**
 * `npm start` until the server answers; everything it printed. `then` runs while it serves, with
 * npm's own process and the server's address. `cwd`: the project to start in (the repository's
 * own, or a fixture's); `args`: npm's after `start`.
 */
async function npmStart(
  dataDir: string,
  { cwd = REPO_ROOT, args = [] as string[] } = {},
  then?: (npm: ChildProcess, url: string) => Promise<void>,
): Promise<string> {
  const port = await freePort();
  const child = spawn('npm', ['start', ...args], {
    cwd,
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

/** What the real build prints last (scripts/build-server.ts), and the fixture's build too. */
const BUILT = 'server built: dist-server/main.js';

/**
 * A project of a few files that npm starts as it starts this one: package.json's real `prestart`
 * and `start` scripts, the real build stamp (scripts/build-stamp.mjs), and a build that only writes
 * the files a start needs, in milliseconds, where the real one takes a minute: a server that
 * answers /api/health. So the stamp's decision is tested, not the build again (npm test built
 * before the tests).
 */
async function fixtureProject(): Promise<string> {
  const base = await mkdtemp(path.join(tmpdir(), 'build-stamp-project-'));
  const { scripts } = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  await writeFile(
    path.join(base, 'package.json'),
    JSON.stringify({
      name: 'build-stamp-fixture',
      private: true,
      type: 'module',
      scripts: { build: 'node build.mjs && node scripts/build-stamp.mjs write', prestart: scripts.prestart, start: scripts.start },
    }),
  );
  await mkdir(path.join(base, 'scripts'));
  await copyFile(path.join(REPO_ROOT, 'scripts', 'build-stamp.mjs'), path.join(base, 'scripts', 'build-stamp.mjs'));
  await mkdir(path.join(base, 'server'));
  await copyFile(path.join(REPO_ROOT, 'server', 'runtime.env'), path.join(base, 'server', 'runtime.env'));
  const server = `import { createServer } from 'node:http';
const server = createServer((request, response) => response.writeHead(request.url === '/api/health' ? 200 : 404).end());
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;
  await writeFile(
    path.join(base, 'build.mjs'),
    `import { mkdirSync, writeFileSync } from 'node:fs';
for (const dir of ['dist', 'dist-server/pgdata-template']) mkdirSync(dir, { recursive: true });
writeFileSync('dist/index.html', '<!doctype html>');
writeFileSync('dist-server/main.js', ${JSON.stringify(server)});
writeFileSync('dist-server/build-indexes-worker.js', '');
writeFileSync('dist-server/pgdata-template/PG_VERSION', '17');
console.log(${JSON.stringify(BUILT)});
`,
  );
  return base;
}

describe('npm start', () => {
  it('builds when there is no current build, and not again on the next start', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    const project = await fixtureProject();
    expect(isBuildCurrent(project)).toBe(false);
    const first = await npmStart(dataDir, { cwd: project });
    expect(first).toContain('Sources changed since the last build (or there is none): building.');
    // The build's own lines (the real one's list every file) are kept back when it succeeds.
    expect(first).toMatch(/Built in \d+ s/);
    expect(first).not.toContain(BUILT);
    expect(isBuildCurrent(project)).toBe(true);

    const second = await npmStart(dataDir, { cwd: project });
    expect(second).toContain('The build is current');
    expect(second).not.toContain('server built');
  }, 300_000);

  it('shows the whole of a build that fails, and does not start', async () => {
    const project = await fixtureProject();
    await writeFile(path.join(project, 'build.mjs'), `console.log('compiling the app'); console.error('src/app.ts: a type error'); process.exit(3);\n`);
    const failed = await npmStart(await mkdtemp(path.join(tmpdir(), 'npm-start-')), { cwd: project }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/^npm start exited with [1-9]/);
    expect(failed).toContain('compiling the app');
    expect(failed).toContain('src/app.ts: a type error');
    expect(failed).toContain('The build failed (exit 3): its output is above.');
    expect(isBuildCurrent(project)).toBe(false);
  }, 300_000);

  it('stops the server when npm alone is told to stop, as a supervisor or a container runtime tells it', async () => {
    const dataDir = await prefittedDataDir('npm-start-');
    let stillServing = true;
    // The real server, as npm test built it: without the prestart, which would build again were
    // the sources changed since.
    await npmStart(dataDir, { args: ['--ignore-scripts'] }, async (npm, url) => {
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
