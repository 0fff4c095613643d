import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { screen } from '@testing-library/react';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import ReadPage from '../../src/features/reading/components/ReadPage.tsx';
import { corpusEngine } from '../server/engine-helpers.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

const LATE = 'ch8-26';
const LATE_CHAPTER = 'Chapter VIII: The Love of God';
const QUICK = 'editorial-note-1';

/**
 * A pass-through proxy in front of the real server that holds back the replies for one passage
 * until the test lets them go: that passage's reply then arrives after a later one's.
 */
async function holdingProxy(target: string, passage: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let finished!: (how: 'answered' | 'aborted') => void;
  const done = new Promise<'answered' | 'aborted'>((resolve) => (finished = resolve));
  const proxy = createServer(async (request, response) => {
    const held = request.url?.includes(`/passages/${passage}/`) ?? false;
    if (held) {
      response.on('close', () => finished(response.writableFinished ? 'answered' : 'aborted'));
      await released;
      if (response.destroyed) return;
    }
    const upstream = await fetch(target + request.url, { headers: { accept: request.headers.accept ?? '*/*' } });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    release,
    done,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

const currentPassage = () => document.querySelector('[aria-current="true"]')?.getAttribute('data-passage');

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}
const actEnvironment = globalThis.IS_REACT_ACT_ENVIRONMENT;

describe('reading in context, against the real API', () => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;

  beforeAll(async () => {
    const engine = await corpusEngine();
    server = await startTestServer('embedded', { extra: { engine } });
    proxy = await holdingProxy(server.url, LATE);
    setApiBase(`${proxy.url}/api`);
    globalThis.IS_REACT_ACT_ENVIRONMENT = false;
    // jsdom lays nothing out: the page's scroll to the current passage has nowhere to go, and the
    // message bar's watch on its own size sees nothing.
    Element.prototype.scrollIntoView = () => undefined;
    window.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  });
  afterAll(async () => {
    globalThis.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    void proxy.close();
    await server.close();
  });

  /** The read page at `path`, rendered as the browser renders it, not inside act(): a render that suspends inside act() waits there for its data. */
  function renderAt(path: string) {
    const location = memoryLocation({ path });
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    // In StrictMode, as the app runs: effects are set up, torn down and set up again at once.
    root.render(
      <StrictMode>
        <FluentProvider theme={webLightTheme}>
          <Router hook={location.hook}>
            <Route path="/read/:id" component={ReadPage} />
          </Router>
        </FluentProvider>
      </StrictMode>,
    );
    return {
      navigate: location.navigate,
      [Symbol.dispose]: () => {
        root.unmount();
        container.remove();
      },
    };
  }

  it('never shows a reply that arrives after the reader has moved on to another passage', async () => {
    const page = renderAt(`/read/${LATE}`);
    try {
      expect(await screen.findByText('Opening the book…')).toBeInTheDocument();
      // The reader moves on before the first passage's reply; the second one's comes at once.
      page.navigate(`/read/${QUICK}`);
      expect(await screen.findByRole('heading', { name: 'Editorial Note' })).toBeInTheDocument();
      expect(currentPassage()).toBe(QUICK);

      // Now the first passage's reply is let go, and the server is done with it.
      proxy.release();
      const first = await proxy.done;
      // Had that reply been on its way to the page, a round trip started after it ends after it;
      // then a task for React to render what it brought.
      await fetch(`${proxy.url}/api/health`);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(screen.queryByRole('heading', { name: LATE_CHAPTER })).toBeNull();
      expect(screen.getByRole('heading', { name: 'Editorial Note' })).toBeInTheDocument();
      expect(currentPassage()).toBe(QUICK);
      // The page gave that request up when the reader moved on, rather than leave it running.
      expect(first).toBe('aborted');
    } finally {
      page[Symbol.dispose]();
    }
  });

  it('says when the server cannot be reached, and asks again on Try again', async () => {
    setApiBase('http://127.0.0.1:1/api');
    const page = renderAt(`/read/${QUICK}`);
    try {
      expect(await screen.findByRole('alert')).toHaveTextContent(/./);
      setApiBase(`${proxy.url}/api`);
      (await screen.findByRole('button', { name: 'Try again' })).click();
      expect(await screen.findByRole('heading', { name: 'Editorial Note' })).toBeInTheDocument();
      expect(currentPassage()).toBe(QUICK);
    } finally {
      page[Symbol.dispose]();
      setApiBase(`${proxy.url}/api`);
    }
  });

  it('says plainly that a passage does not exist, with nothing to try again', async () => {
    const page = renderAt('/read/ch99-1');
    try {
      expect(await screen.findByRole('alert')).toHaveTextContent('No passage with id ch99-1');
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    } finally {
      page[Symbol.dispose]();
    }
  });
});
