/**
 * The build's pre-render (scripts/prerender.ts): renders a public route to HTML, with the
 * styles its components insert, for a reader who is not signed in and has chosen no theme.
 */
import { createDOMRenderer, renderToStyleElements, type GriffelRenderer } from '@fluentui/react-components';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { RULE_SEPARATOR } from '../app/hydration/rehydrate-styles.ts';
import { currentRenderState, Root } from '../app/Root.tsx';
import type { RenderState } from '../app/hydration/render-state.ts';
import type { BookReply } from '../../contract/api-schemas.ts';
import { provideBook } from '../features/reading/book-api.ts';

export interface RenderedRoute {
  /** The markup inside #root. */
  html: string;
  /** <style> elements for <head>, which the browser's style renderer takes over. */
  styles: string;
  state: RenderState;
}

async function renderHtml(path: string, renderer: GriffelRenderer): Promise<string> {
  // No size limit on an inline boundary: React would otherwise move a large one out of place,
  // behind an inline script.
  const { prelude } = await prerender(<Root renderer={renderer} ssrPath={path} />, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  return new Response(prelude).text();
}

/**
 * The renderer as renderToStyleElements sees it, with each style sheet's rules apart: the browser
 * reads them back by splitting the text (src/app/hydration/rehydrate-styles.ts).
 */
function withRulesApart(renderer: GriffelRenderer): GriffelRenderer {
  const stylesheets: GriffelRenderer['stylesheets'] = {};
  for (const [key, sheet] of Object.entries(renderer.stylesheets)) {
    const rules = sheet.cssRules();
    const unsplittable = rules.find((rule) => rule.includes(RULE_SEPARATOR));
    if (unsplittable) throw new Error(`prerender: a CSS rule holds ${RULE_SEPARATOR}: ${unsplittable}`);
    stylesheets[key] = { ...sheet, cssRules: () => (rules.length > 0 ? [rules.join(RULE_SEPARATOR)] : []) };
  }
  return { ...renderer, stylesheets };
}

/** `book`: GET /api/book's reply, for the reader's pages (the build has no server to ask). */
export async function renderRoute(path: string, book?: BookReply): Promise<RenderedRoute> {
  if (book) provideBook(book);
  // The first pass loads the route's lazily loaded page; the second renders it in place. A page
  // that loaded during a pass would instead arrive as a streamed chunk with an inline script,
  // which the CSP (script-src 'self') rightly refuses to run.
  await renderHtml(path, createDOMRenderer());
  const renderer = createDOMRenderer();
  const html = await renderHtml(path, renderer);
  if (/<script|<template|<!--\$[!?]-->/.test(html)) throw new Error(`prerender: ${path} did not render in one pass`);
  const styles = renderToStaticMarkup(<>{renderToStyleElements(withRulesApart(renderer))}</>);
  return { html, styles, state: currentRenderState(path) };
}
