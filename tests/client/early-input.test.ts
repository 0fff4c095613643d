import { describe, expect, it } from 'vitest';
import { markLive, takeEarlyTaps } from '../../src/lib/early-input.ts';
import { EARLY_INPUT_SCRIPT } from '../../contract/early-input-script.ts';

describe('taps kept before the app loads', () => {
  it('hands each control its own taps, once', () => {
    const early = { pending: ['theme-toggle', 'begin', 'theme-toggle'], live: {} };
    expect(takeEarlyTaps('theme-toggle', early)).toBe(2);
    expect(takeEarlyTaps('theme-toggle', early)).toBe(0);
    expect(early.pending).toEqual(['begin']);
    expect(takeEarlyTaps('anything', undefined)).toBe(0);
  });

  it('keeps a tap on a control until it is live, then lets taps through', () => {
    document.body.innerHTML = '<button data-early-action="theme-toggle"><span>icon</span></button><form data-early-action="sign-in"><input name="u"><button type="submit">Go</button></form>';
    new Function(EARLY_INPUT_SCRIPT)();
    const early = window.__earlyInput!;
    const button = document.querySelector('button')!;
    const inner = document.querySelector('span')!;
    let reached = 0;
    button.addEventListener('click', () => reached++);
    inner.click();
    expect(early.pending).toEqual(['theme-toggle']);
    expect(reached).toBe(0);

    const form = document.querySelector('form')!;
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(early.pending).toEqual(['theme-toggle', 'sign-in']);

    markLive('theme-toggle');
    button.click();
    expect(reached).toBe(1);
    expect(early.pending).toEqual(['theme-toggle', 'sign-in']);
  });
});
