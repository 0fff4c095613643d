/**
 * The entry: small on purpose. A page the build pre-rendered is already readable from its HTML,
 * so the app (src/boot.tsx) is fetched and started only once that page is on screen, instead of
 * holding it back; the plain shell has nothing to show yet and loads the app at once.
 */
import { captureInstallOffers } from './features/pwa/install-offer.ts';

// The browser may offer installation before the app has loaded: keep the offer for it.
captureInstallOffers();

function boot(): void {
  void import('./boot.tsx');
}

/** Starts fetching the chunks the build listed on #root, all at once, before boot asks for them. */
function preload(chunks: string | undefined): void {
  for (const href of chunks?.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

/**
 * Runs `work` once the whole page has loaded and been painted: after the load event, a frame
 * with everything laid out, and one more frame for that paint to reach the screen.
 */
function afterPaint(work: () => void): void {
  const paint = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(work, 0)));
  if (document.readyState === 'complete') paint();
  else window.addEventListener('load', paint, { once: true });
}

const root = document.getElementById('root');
if (root?.dataset.prerendered && document.visibilityState === 'visible') {
  afterPaint(() => {
    preload(root.dataset.chunks);
    boot();
  });
} else {
  // Nothing painted yet, or a background tab, which gets no frames.
  boot();
}
