import { create } from 'zustand';
import { onInstallOffer } from './install-offer.ts';

/** Set while the browser offers installation: calling it shows the browser's install prompt. */
export const useInstallPrompt = create<{ install: (() => Promise<void>) | null }>()(() => ({ install: null }));

export function listenForInstallPrompt(): void {
  onInstallOffer((offer) =>
    useInstallPrompt.setState({
      install: offer
        ? async () => {
            await offer.prompt();
            await offer.userChoice;
            useInstallPrompt.setState({ install: null });
          }
        : null,
    }),
  );
}
