/** The event by which the browser offers to install the app (Chromium's beforeinstallprompt). */
export interface InstallOffer extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

type Listener = (offer: InstallOffer | null) => void;

let current: InstallOffer | null = null;
let listener: Listener | null = null;

/**
 * Listens from the page's first script on (src/main.ts): the browser may offer installation
 * before the app has loaded, and it makes that offer once.
 */
export function captureInstallOffers(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    current = event as InstallOffer;
    listener?.(current);
  });
  window.addEventListener('appinstalled', () => {
    current = null;
    listener?.(null);
  });
}

/** Hands the app the offer made so far (or null), then every change to it. */
export function onInstallOffer(next: Listener): void {
  listener = next;
  next(current);
}
