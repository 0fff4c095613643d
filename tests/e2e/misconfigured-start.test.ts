import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwritableFolder } from '../fixtures/file-modes.ts';
import { addFittedModels } from '../run-fixtures.ts';
import { freePort, startServerProcess } from './server-process.ts';

/** What a start that fails prints, having exited with 1. */
async function failedStart(env: Record<string, string>): Promise<string> {
  const message = await startServerProcess(env).then(
    async (server) => {
      await server.stop('SIGKILL');
      return 'it started';
    },
    (error: Error) => error.message,
  );
  expect(message).toMatch(/^server exited with 1:/);
  expect(message).not.toMatch(/^\s+at /m); // one sentence, no stack trace
  return message;
}

describe('the server as npm start runs it, misconfigured', () => {
  it('says in one sentence that DATABASE_URL is malformed, without repeating it', async () => {
    const message = await failedStart({ DATABASE_URL: 'postgres://app:2024#Spring@127.0.0.1:5432/alchemy' });
    expect(message).toContain('Configuration error: DATABASE_URL is not a valid PostgreSQL URL');
    expect(message).not.toContain('Spring');
  });

  it('says in one sentence that DATA_DIR cannot be made, wherever it is', async () => {
    // A file where a folder should be; and under /proc, where Node's own recursive mkdir never returned.
    expect(await failedStart({ DATA_DIR: '/dev/null/alchemy' })).toContain('Configuration error: DATA_DIR /dev/null/alchemy cannot be used: ENOTDIR');
    expect(await failedStart({ DATA_DIR: '/proc/alchemy/data' })).toContain('Configuration error: DATA_DIR /proc/alchemy/data cannot be used: ENOENT');
    // A file where the folder should be is refused, not taken as a folder.
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'alchemy-file-')), 'data');
    await writeFile(file, 'not a folder');
    expect(await failedStart({ DATA_DIR: file })).toContain(`Configuration error: DATA_DIR ${file} cannot be used: EEXIST`);
    // A folder that takes no files: said at once, not after the models, with a stack trace.
    expect(await failedStart({ DATA_DIR: await unwritableFolder() })).toMatch(/Configuration error: DATA_DIR \S+ cannot be used: EACCES/);
  });

  it('says in one sentence that the book cannot be had, and leaves no half-made database however often it is tried', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'alchemy-book-'));
    const missing = await failedStart({ DATA_DIR: path.join(dataDir, 'data'), CORPUS_FILE: '/nonexistent/book.md' });
    expect(missing).toContain('Cannot read the book at /nonexistent/book.md (set CORPUS_FILE): ENOENT');
    const notTheBook = await failedStart({ DATA_DIR: path.join(dataDir, 'data'), CORPUS_FILE: '/etc/hostname' });
    expect(notTheBook).toContain("/etc/hostname is not the book's Markdown (set CORPUS_FILE)");
    // A start cut short may leave the database it began beside DATA_DIR's (as one killed while making it
    // does, here by hand); what is left of them goes at the next start.
    await mkdir(path.join(dataDir, 'data', 'pgdata.new-99999', 'base'), { recursive: true });
    // The models as an earlier start left them: this start only has to load them.
    await addFittedModels(path.join(dataDir, 'data'));
    const started = await startServerProcess({ DATA_DIR: path.join(dataDir, 'data') });
    await started.stop();
    expect((await readdir(path.join(dataDir, 'data'))).filter((name) => name.includes('.new-'))).toEqual([]);
  });

  it('says in one sentence, before anything else, that a folder stands where its admin socket goes', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'alchemy-sock-'));
    await mkdir(path.join(dataDir, 'admin.sock'));
    const message = await failedStart({ DATA_DIR: dataDir });
    expect(message).toContain(`Configuration error: ${path.join(dataDir, 'admin.sock')} is a folder, where the server's admin socket goes`);
    // Refused before the database was made.
    expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  });

  it('says it cannot listen, not that the database is away, when HOST does not resolve', async () => {
    expect(await failedStart({ HOST: '999.1.1.1' })).toMatch(/Cannot listen: getaddrinfo (ENOTFOUND|EAI_AGAIN) 999\.1\.1\.1/);
  });

  it('says in one sentence that its port is taken', async () => {
    const port = await freePort();
    // Something else answers there (404), so that only the server's exit can end the wait.
    const taken = createServer((_request, response) => response.writeHead(404).end()).listen(port, '127.0.0.1');
    try {
      expect(await failedStart({ PORT: String(port) })).toContain(`Cannot listen: listen EADDRINUSE: address already in use 127.0.0.1:${port}`);
      // The metrics port too (it is listened on first).
      expect(await failedStart({ METRICS_PORT: String(port) })).toContain(`Cannot listen: METRICS_PORT: listen EADDRINUSE: address already in use 127.0.0.1:${port}`);
    } finally {
      taken.close();
    }
  });
});
