import { Workbox } from 'workbox-window';
import { create } from 'zustand';

/** Set when a new version's worker waits: calling it activates the worker and reloads. */
export const useAppUpdate = create<{ applyUpdate: (() => void) | null }>()(() => ({ applyUpdate: null }));

/** Registers /sw.js and offers 'A new version is available' when a new worker is waiting. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    useAppUpdate.setState({
      applyUpdate: () => {
        workbox.addEventListener('controlling', () => window.location.reload());
        workbox.messageSkipWaiting();
      },
    });
  });
  workbox.register().catch((error: unknown) => console.warn('The service worker could not be registered', error));
}
