import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import SearchPage from '../../src/features/search/components/SearchPage.tsx';
import { signIn } from '../../src/features/session/sign-in.ts';
import { corpusEngine } from '../server/engine-helpers.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

const PASSWORD = 'correct horse battery';

describe('the search page when the server cannot be reached, against the real API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('embedded', { extra: { engine: await corpusEngine() } });
    await server.addUser('reader', PASSWORD);
    setApiBase(`${server.url}/api`);
    await signIn('reader', PASSWORD);
    // jsdom lays nothing out: the scroll to the results has nowhere to go.
    Element.prototype.scrollIntoView = () => undefined;
    window.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  });
  afterAll(() => server.close());

  function renderPage() {
    return render(
      <StrictMode>
        <FluentProvider theme={webLightTheme}>
          <Router hook={memoryLocation({ path: '/dashboard' }).hook}>
            <SearchPage />
          </Router>
        </FluentProvider>
      </StrictMode>,
    );
  }

  it('says the search failed, offers Retry, and shows the answer once the server is back', async () => {
    renderPage();
    // Before a search: one heading, examples, no results heading.
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(["Explore Al-Ghazali's Wisdom"]);
    expect(screen.queryByRole('heading', { name: 'Search Results' })).toBeNull();
    // The server stops answering (nothing listens where the page sends its search).
    setApiBase('http://127.0.0.1:1/api');
    fireEvent.click(screen.getByRole('button', { name: 'What is true happiness?' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Search failed');
    expect(alert).toHaveTextContent('The server could not be reached, or could not answer just now.');
    expect(screen.queryByRole('heading', { name: 'Search Results' })).toBeNull();
    // It is back: Retry asks the same question again.
    setApiBase(`${server.url}/api`);
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    // The question sits in its own <bdi>: the line is matched whole.
    await screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === 'Results for “What is true happiness?”', {}, { timeout: 10_000 });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Search Results' })).toHaveFocus();
  });

  it('says the book says little about a question it does not answer, and not about one it does, in the pair drawn', async () => {
    renderPage();
    setApiBase(`${server.url}/api`);
    const ask = async (question: string) => {
      fireEvent.change(screen.getByRole('textbox', { name: 'What would you like to know?' }), { target: { value: question } });
      fireEvent.submit(screen.getByRole('search'));
      await screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === `Results for “${question}”`, {}, { timeout: 10_000 });
    };
    await ask('How do I fix a flat bicycle tyre?');
    expect(screen.getByText('The book says little about this')).toBeVisible();
    // The passages are still shown.
    expect(screen.getAllByRole('heading', { name: /^Result [AB]$|^Both models chose/ }).length).toBeGreaterThan(0);
    await ask('What is true happiness?');
    expect(screen.queryByText('The book says little about this')).toBeNull();
  });

  it('offers no Retry for a question the server refused', async () => {
    renderPage();
    setApiBase(`${server.url}/api`);
    // Longer than a search takes (the box stops a typed one at the limit; the server refuses it).
    const refused = 'x'.repeat(5000);
    fireEvent.change(screen.getByRole('textbox', { name: 'What would you like to know?' }), { target: { value: refused } });
    fireEvent.submit(screen.getByRole('search'));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
