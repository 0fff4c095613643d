import { describe, expect, it, vi } from 'vitest';
import { captureInstallOffers, installOffer } from '../../src/features/pwa/install-offer.ts';

/** What Chromium fires when the app can be installed. */
function offerInstall() {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => {}),
    userChoice: Promise.resolve({ outcome: 'accepted' as const }),
  });
  window.dispatchEvent(event);
  return event;
}

describe('the install offer', () => {
  it('reaches the app even when the browser made it before the app had loaded, and goes once used or installed', async () => {
    captureInstallOffers(); // as the entry script does, first thing
    const early = offerInstall();
    expect(early.defaultPrevented).toBe(true); // no mini-infobar: the app offers it, in its nav bar

    const install = installOffer.getState().install;
    expect(install).not.toBeNull();
    await install!();
    expect(early.prompt).toHaveBeenCalledOnce();
    expect(installOffer.getState().install).toBeNull();

    offerInstall(); // offered again later (the reader dismissed it)
    expect(installOffer.getState().install).not.toBeNull();
    window.dispatchEvent(new Event('appinstalled'));
    expect(installOffer.getState().install).toBeNull();
  });
});
