import { createHash } from 'node:crypto';

/**
 * A few lines inlined at the top of every page, before any other script: until the app has taken
 * a control over, a tap on it (a click on an element with `data-early-action`, or the submit of
 * a form with one) is kept in `window.__earlyInput` instead of being lost; the app replays each
 * when its control comes alive (src/early/early-input.ts). Links need none of this: the browser
 * follows them itself.
 */
export const EARLY_INPUT_SCRIPT =
  "(function(){var q=window.__earlyInput={pending:[],live:{}};function keep(e){var t=e.target,c=t&&t.closest&&t.closest('[data-early-action]');if(!c)return;var a=c.getAttribute('data-early-action');if(q.live[a]||(e.type==='click'&&c.tagName==='FORM'))return;e.preventDefault();e.stopPropagation();q.pending.push(a)}document.addEventListener('click',keep,true);document.addEventListener('submit',keep,true)})();";

/** The Content-Security-Policy source that lets exactly this inline script run. */
export function earlyInputScriptHash(): string {
  return `'sha256-${createHash('sha256').update(EARLY_INPUT_SCRIPT).digest('base64')}'`;
}
