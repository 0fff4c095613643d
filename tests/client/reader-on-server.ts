import { afterAll, beforeAll, beforeEach } from 'vitest';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { signIn } from '../../src/features/session/sign-in.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Within a describe: a real server on the embedded store, with the reader `reader` signed in on the
 * page's session, and the page's API on that server before each test. `offLine()` points the API at
 * an address nobody answers; `onLine()` back at the server.
 */
export function readerOnServer(password: string): { readonly server: TestServer; onLine(): void; offLine(): void } {
  let server: TestServer | undefined;
  const context = {
    get server(): TestServer {
      if (!server) throw new Error('the server starts in beforeAll');
      return server;
    },
    onLine: () => setApiBase(`${context.server.url}/api`),
    offLine: () => setApiBase('http://127.0.0.1:1/api'),
  };
  beforeAll(async () => {
    server = await startTestServer('embedded');
    await server.addUser('reader', password);
    context.onLine();
    await signIn('reader', password);
  });
  afterAll(() => server?.close());
  beforeEach(context.onLine);
  return context;
}
