import { create } from 'zustand';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** Set while the browser offers installation: calling it shows the browser's install prompt. */
export const useInstallPrompt = create<{ install: (() => Promise<void>) | null }>()(() => ({ install: null }));

export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    const offer = event as BeforeInstallPromptEvent;
    useInstallPrompt.setState({
      install: async () => {
        await offer.prompt();
        await offer.userChoice;
        useInstallPrompt.setState({ install: null });
      },
    });
  });
  window.addEventListener('appinstalled', () => useInstallPrompt.setState({ install: null }));
}
