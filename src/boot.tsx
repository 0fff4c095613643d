/**
 * The app's start, loaded by the entry (src/main.ts). Its steps load and run in separate tasks,
 * so that a page already painted from pre-rendered HTML keeps answering input while the app
 * takes it over.
 */
import { createDOMRenderer } from '@griffel/core';
import { startTransition } from 'react';
import { canHydrate, parseRenderState } from './app/hydration/render-state.ts';
import { rehydrateStyles } from './app/hydration/rehydrate-styles.ts';
import { yieldToMain } from './app/hydration/yield-to-main.ts';
import { registerServiceWorker } from './features/pwa/register-service-worker.ts';
import { reloadWhenCodeIsMissing } from './features/pwa/reload-page.ts';

async function start(): Promise<void> {
  registerServiceWorker();
  reloadWhenCodeIsMissing();
  const container = document.getElementById('root')!;
  const renderer = createDOMRenderer(document);
  const { createRoot, hydrateRoot } = await import('react-dom/client');
  rehydrateStyles(renderer, document);
  await yieldToMain();
  const { currentRenderState, Root } = await import('./app/Root.tsx');
  await yieldToMain();
  // A first visit gets the page pre-rendered by the build: it shows before any script runs, and
  // the app takes it over in place, in small slices (a transition). When this reader's page would
  // differ (signed in, another theme), it renders afresh.
  const rendered = parseRenderState(container.dataset.prerendered);
  const hydrate = canHydrate(rendered, currentRenderState(window.location.pathname));
  // The styles are read back above: the provider is given a document with none left to read.
  // Taking over, each part reads the route the page was rendered at: a link followed before the
  // page's last part is taken over would otherwise have that part rendered for the new route
  // against the old route's HTML. Once taken over, the router follows the address bar.
  const app = (
    <Root renderer={renderer} ssrPath={hydrate ? rendered?.path : undefined} styleDocument={document.implementation.createHTMLDocument('')} />
  );
  if (hydrate) {
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    container.replaceChildren();
    delete container.dataset.prerendered;
    // In a transition too, so that the first render is done in slices with input answered between
    // them: a plain render does the whole tree (a signed-in reader's dashboard) in one long task.
    startTransition(() => {
      createRoot(container).render(app);
    });
  }
}

void start();
