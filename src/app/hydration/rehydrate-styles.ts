import {
  DATA_BUCKET_ATTR,
  DATA_CONTAINER_ATTR,
  DATA_PRIORITY_ATTR,
  getStyleSheetKey,
  type GriffelRenderer,
  type StyleBucketName,
} from '@griffel/core';

type StyleSheet = GriffelRenderer['stylesheets'][string];

/**
 * Pre-rendered <style> elements hold their CSS rules with an empty comment between each two
 * (src/prerender/render-route.tsx): each piece is exactly the string the style renderer inserted
 * at build time, and so exactly the key it looks a rule up by. (A rule may span lines; none holds
 * a comment, which the CSS compiler strips.)
 */
export const RULE_SEPARATOR = '/**/';

/** The renderer's view of a <style> element already in the page: new rules of its bucket go at its end. */
function styleSheetOf(element: HTMLStyleElement, bucketName: StyleBucketName): StyleSheet {
  return {
    bucketName,
    element,
    elementAttributes: Object.fromEntries([...element.attributes].map((attribute) => [attribute.name, attribute.value])),
    cssRules: () => [...(element.sheet?.cssRules ?? [])].map((rule) => rule.cssText),
    insertRule: (rule) => element.sheet?.insertRule(rule, element.sheet.cssRules.length),
  };
}

/**
 * Tells the style renderer which rules the pre-rendered <style> elements already hold, so that it
 * adds only new rules, beside them and in order, instead of writing them all again. Splitting
 * the text costs next to nothing; Griffel's own rehydration re-parses all the CSS (~60 KB) and
 * misses rules whose text its parser normalises.
 */
export function rehydrateStyles(renderer: GriffelRenderer, doc: Document): void {
  for (const element of doc.querySelectorAll<HTMLStyleElement>(`style[${DATA_BUCKET_ATTR}]`)) {
    const bucketName = element.getAttribute(DATA_BUCKET_ATTR) as StyleBucketName;
    const condition = element.getAttribute(DATA_CONTAINER_ATTR) ?? (element.media || '0');
    const key = getStyleSheetKey(bucketName, condition, element.getAttribute(DATA_PRIORITY_ATTR) ?? '0');
    renderer.stylesheets[key] ??= styleSheetOf(element, bucketName);
    for (const rule of (element.textContent ?? '').split(RULE_SEPARATOR)) {
      if (rule) renderer.insertionCache[rule] = bucketName;
    }
  }
}
