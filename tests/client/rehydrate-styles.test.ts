import { createDOMRenderer, makeStyles } from '@griffel/core';
import { describe, expect, it } from 'vitest';
import { rehydrateStyles, RULE_SEPARATOR } from '../../src/app/hydration/rehydrate-styles.ts';

// Rules whose text Griffel's own rehydration (a re-parse) gives back changed: the space before ';'.
const cardClasses = makeStyles({
  card: {
    color: 'red',
    borderBottomLeftRadius: 'var(--radius) ',
    ':hover': { color: 'blue' },
    '@media (min-width: 600px)': { paddingTop: '8px' },
  },
});
const otherClasses = makeStyles({ other: { marginTop: '2px' } });

/** What the build writes into <head>: each style sheet's rules, apart, in a <style> with its attributes. */
function prerenderedHead(): string {
  const server = createDOMRenderer(document.implementation.createHTMLDocument(''));
  cardClasses({ dir: 'ltr', renderer: server });
  return Object.values(server.stylesheets)
    .map((sheet) => {
      const attributes = Object.entries(sheet.elementAttributes).map(([name, value]) => ` ${name}="${value}"`).join('');
      return `<style${attributes}>${sheet.cssRules().join(RULE_SEPARATOR)}</style>`;
    })
    .join('');
}

const sheets = () =>
  [...document.querySelectorAll<HTMLStyleElement>('style[data-make-styles-bucket]')].map((element) => ({
    bucket: element.dataset.makeStylesBucket,
    rules: [...element.sheet!.cssRules].map((rule) => rule.cssText),
  }));

describe('taking over pre-rendered styles', () => {
  it('writes no rule the page already has, and adds new ones to the end of their bucket', () => {
    document.head.innerHTML = prerenderedHead();
    const before = sheets();
    expect(before.map((s) => s.bucket)).toEqual(['d', 'h', 'm']);
    expect(before[0]!.rules.join(' ')).toMatch(/color: red.*border-bottom-left-radius/);

    const renderer = createDOMRenderer(document);
    rehydrateStyles(renderer, document);
    cardClasses({ dir: 'ltr', renderer });
    expect(sheets()).toEqual(before);

    otherClasses({ dir: 'ltr', renderer });
    const after = sheets();
    expect(after).toHaveLength(3);
    expect(after[0]!.rules.slice(0, before[0]!.rules.length)).toEqual(before[0]!.rules);
    expect(after[0]!.rules.at(-1)).toMatch(/margin-top: 2px/);
  });

});
