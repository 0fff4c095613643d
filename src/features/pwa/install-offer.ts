import { createStore } from 'zustand/vanilla';

/** The event by which the browser offers to install the app (Chromium's beforeinstallprompt). */
interface InstallOffer extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/**
 * Set while the browser offers installation: calling it shows the browser's install prompt.
 * A store without React, so that the entry script (src/main.ts) can fill it before the app loads.
 */
export const installOffer = createStore<{ install: (() => Promise<void>) | null }>()(() => ({ install: null }));

/**
 * Listens from the page's first script on: the browser may offer installation before the app
 * has loaded, and it makes that offer once.
 */
export function captureInstallOffers(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    const offer = event as InstallOffer;
    installOffer.setState({
      install: async () => {
        await offer.prompt();
        await offer.userChoice;
        installOffer.setState({ install: null });
      },
    });
  });
  window.addEventListener('appinstalled', () => installOffer.setState({ install: null }));
}
