import type { GriffelRenderer } from '@fluentui/react-components';
import { rehydrateRendererCache } from '@griffel/core';
import { yieldToMain } from './yield-to-main.ts';

/**
 * Tells the style renderer which rules the pre-rendered <style> elements already hold, so it adds
 * new rules beside them in order instead of writing them all again. Reading them back is real
 * work (every rule is parsed), so it goes one element per task and the page answers input meanwhile.
 */
export async function rehydrateStyles(renderer: GriffelRenderer, doc: Document): Promise<void> {
  for (const element of doc.querySelectorAll('style[data-make-styles-bucket]')) {
    // rehydrateRendererCache reads every such element of the document it is given: this hands it
    // a view of the document that holds just one of them.
    const justThisElement = { querySelectorAll: () => [element] } as unknown as Document;
    rehydrateRendererCache(renderer, justThisElement);
    await yieldToMain();
  }
}
