import { Workbox } from 'workbox-window';
import { create } from 'zustand';
import { reloadPage } from './reload-page.ts';

/** Set when a new version is ready: calling it moves this page to the new version. */
export const useAppUpdate = create<{ applyUpdate: (() => void) | null }>()(() => ({ applyUpdate: null }));

/**
 * Registers /sw.js and offers 'A new version is available' when a new version is ready: its
 * worker waiting (Reload activates it and reloads), or already in control of this page because
 * another tab's Reload activated it (Reload reloads: the page's code is then the old version's).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  let applying = false;
  workbox.addEventListener('waiting', () => {
    useAppUpdate.setState({
      applyUpdate: () => {
        applying = true;
        workbox.messageSkipWaiting();
      },
    });
  });
  // The new worker took this page over: this tab's Reload asked for it, or another tab's did. A
  // page the first worker takes over (a first visit) is already the current version.
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (applying) reloadPage();
    else if (controlled) useAppUpdate.setState({ applyUpdate: reloadPage });
    controlled = true;
  });
  workbox.register().catch((error: unknown) => console.warn('The service worker could not be registered', error));
}
