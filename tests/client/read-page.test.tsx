import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { screen, waitFor } from '@testing-library/react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Route, Router, Switch } from 'wouter';
import { corpusBook } from '../../scripts/book-json.ts';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { refreshServerData } from '../../src/lib/api/server-data.ts';
import ContentsPage from '../../src/features/reading/components/ContentsPage.tsx';
import ReadPage from '../../src/features/reading/components/ReadPage.tsx';
import { BOOK_KEY, forgetBook } from '../../src/features/reading/book-api.ts';
import { removePack, saveBookText } from '../../src/features/offline/pack-store.ts';
import { keepReadingPlace } from '../../src/features/reading/reading-place.ts';
import { corpusEngine } from '../server/engine-helpers.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

const book = await corpusBook();
/** The machine is shared: the book takes a while to arrive and render. */
const SLOW = { timeout: 10_000 };

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}
const actEnvironment = globalThis.IS_REACT_ACT_ENVIRONMENT;

/**
 * The real server (its passages), with GET /api/book answered with the server's own book reply
 * (server/modules/book's loadBookReply): its route answers 500 over a socket for now (its
 * response schema's serializer is run on the prepared bytes; told to the book's engineer).
 */
async function bookServer(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    if (request.url === '/api/book') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(book));
      return;
    }
    const upstream = await fetch(target + request.url, { headers: { accept: request.headers.accept ?? '*/*' } });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the reader, against a real server', () => {
  let server: TestServer;
  let front: Awaited<ReturnType<typeof bookServer>>;

  beforeAll(async () => {
    const engine = await corpusEngine();
    server = await startTestServer('embedded', { extra: { engine } });
    front = await bookServer(server.url);
    setApiBase(`${front.url}/api`);
    globalThis.IS_REACT_ACT_ENVIRONMENT = false;
    // jsdom lays nothing out: a scroll to a paragraph has nowhere to go.
    Element.prototype.scrollIntoView = () => undefined;
    window.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  });
  afterAll(async () => {
    globalThis.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    await front.close();
    await server.close();
  });
  beforeEach(async () => {
    // Each test opens the book afresh, from the network or the device as it sets them.
    forgetBook();
    refreshServerData(BOOK_KEY);
    await removePack();
    setApiBase(`${front.url}/api`);
  });

  function renderAt(path: string) {
    // The browser's own location (jsdom's): the reader reads its hash as a browser's.
    window.history.replaceState(null, '', path);
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    root.render(
      <StrictMode>
        <FluentProvider theme={webLightTheme}>
          <Router>
            <Switch>
              <Route path="/read" component={ContentsPage} />
              <Route path="/read/:id" component={ReadPage} />
            </Switch>
          </Router>
        </FluentProvider>
      </StrictMode>,
    );
    return {
      [Symbol.dispose]: () => {
        root.unmount();
        container.remove();
      },
    };
  }

  it('lists the parts and sections, and offers to continue where this device left off', async () => {
    keepReadingPlace({ part: 'ch7', n: 14 });
    using _page = renderAt('/read');
    expect(await screen.findByRole('heading', { level: 1, name: 'The Alchemy of Happiness' }, SLOW)).toBeInTheDocument();
    const parts = book.parts.map((p) => screen.getByRole('link', { name: p.heading }));
    expect(parts).toHaveLength(11);
    expect(parts[3]).toHaveAttribute('href', '/read/ch1');
    expect(screen.getByRole('link', { name: 'The Vision of God' }).getAttribute('href')).toMatch(/^\/read\/ch8#p\d+$/);
    expect(screen.getByRole('link', { name: 'Continue reading: Chapter VII, paragraph 14' })).toHaveAttribute('href', '/read/ch7#p14');
  });

  it("opens a chapter at a result's paragraph with its sentence marked, and goes on to the next", async () => {
    const ch4 = book.parts.find((p) => p.slug === 'ch4')!;
    const p13 = ch4.paragraphs[12]!;
    using _page = renderAt('/read/ch4?mark=13:20-80#p13');
    expect(await screen.findByRole('heading', { level: 1, name: ch4.heading }, SLOW)).toBeInTheDocument();
    // Every paragraph at its address, the marked sentence inside the 13th.
    expect(document.querySelectorAll('[data-paragraph]')).toHaveLength(ch4.paragraphs.length);
    expect(screen.getByTestId('marked-sentence').textContent).toBe(p13.text.slice(20, 80));
    expect(screen.getByTestId('marked-sentence').closest('p')).toHaveAttribute('id', 'p13');
    screen.getByRole('link', { name: /^Next: Chapter V/ }).click();
    expect(await screen.findByRole('heading', { level: 1, name: book.parts.find((p) => p.slug === 'ch5')!.heading })).toBeInTheDocument();
    expect(window.location.pathname + window.location.hash).toBe('/read/ch5');
    expect(screen.queryByTestId('marked-sentence')).toBeNull();
  });

  it("lands on a paragraph's address with the focus, but leaves a focus the reader moved while the book loaded", async () => {
    const heading = book.parts.find((p) => p.slug === 'ch4')!.heading;
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      {
        using _page = renderAt('/read/ch4#p12');
        expect(await screen.findByRole('heading', { level: 1, name: heading }, SLOW)).toBeInTheDocument();
        await waitFor(() => expect(document.activeElement?.id).toBe('p12'));
        expect(scrolled.map((el) => el.id)).toContain('p12');
      }
      scrolled.length = 0;
      refreshServerData(BOOK_KEY);
      forgetBook();
      const elsewhere = document.body.appendChild(document.createElement('button'));
      using _page = renderAt('/read/ch4#p12');
      // The reader goes on (Tab) before the book has arrived.
      elsewhere.focus();
      expect(await screen.findByRole('heading', { level: 1, name: heading }, SLOW)).toBeInTheDocument();
      // Still scrolled to the address, the focus left where the reader put it.
      await waitFor(() => expect(scrolled.map((el) => el.id)).toContain('p12'));
      expect(document.activeElement).toBe(elsewhere);
      elsewhere.remove();
    } finally {
      Element.prototype.scrollIntoView = () => undefined;
    }
  });

  it('links each footnote mark to its note at the end and back', async () => {
    using _page = renderAt('/read/ch1');
    const note = await screen.findByRole('link', { name: 'Note 1' }, SLOW);
    const label = book.parts.find((p) => p.slug === 'ch1')!.notes[0]!.label;
    expect(note).toHaveAttribute('href', `#note-${label}`);
    expect(note).toHaveAttribute('id', `ref-${label}`);
    const listed = document.getElementById(`note-${label}`)!;
    expect(listed).toHaveTextContent(book.parts.find((p) => p.slug === 'ch1')!.notes[0]!.text);
    expect(listed.querySelector('a')).toHaveAttribute('href', `#ref-${label}`);
  });

  it('reads from the copy kept on the device when the server cannot be reached', async () => {
    setApiBase('http://127.0.0.1:1/api');
    {
      using _page = renderAt('/read/ch2');
      expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(/server cannot be reached/);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    }
    await saveBookText(book);
    refreshServerData(BOOK_KEY);
    using _page = renderAt('/read/ch2');
    expect(await screen.findByRole('heading', { level: 1, name: book.parts.find((p) => p.slug === 'ch2')!.heading })).toBeInTheDocument();
  });

  it("takes an earlier reader's passage link on to the paragraph the passage begins in", async () => {
    using _page = renderAt('/read/ch8-19');
    await waitFor(() => expect(window.location.pathname + window.location.hash).toMatch(/^\/read\/ch8#p\d+$/));
    expect(await screen.findByRole('heading', { level: 1, name: book.parts.find((p) => p.slug === 'ch8')!.heading })).toBeInTheDocument();
  });
});
