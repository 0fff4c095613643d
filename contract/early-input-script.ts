/**
 * A few lines inlined at the top of every page, before any other script: until the app has taken
 * a control over, a tap on it (a click on an element with `data-early-action`, or the submit of
 * a form with one) is kept in `window.__earlyInput` instead of being lost; the app replays each
 * when its control comes alive (src/early/early-input.ts). Links need none of this: the browser
 * follows them itself.
 *
 * Shared by the build, which inlines it in every page (vite.config.ts), and the server, whose
 * Content-Security-Policy lets exactly this script run, by its hash (server/platform/http/security-headers.ts).
 */
export const EARLY_INPUT_SCRIPT =
  "(function(){var q=window.__earlyInput={pending:[],live:{}};function keep(e){var t=e.target,c=t&&t.closest&&t.closest('[data-early-action]');if(!c)return;var a=c.getAttribute('data-early-action');if(q.live[a]||(e.type==='click'&&c.tagName==='FORM'))return;e.preventDefault();e.stopPropagation();q.pending.push(a)}document.addEventListener('click',keep,true);document.addEventListener('submit',keep,true)})();";
