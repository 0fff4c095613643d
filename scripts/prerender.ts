import react from '@vitejs/plugin-react';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type Rollup } from 'vite';
import { PRERENDERED_DIR, prerenderedFileName } from '../server/platform/http/prerendered-pages.ts';
import type { RenderedRoute } from '../src/prerender/render-route.tsx';
import type { BookReply } from '../contract/api-schemas.ts';
import { openingWords } from '../src/features/reading/reader-text.ts';
import { corpusBook } from './book-json.ts';

/** Public routes a first visit may land on, with the lazily loaded page each one shows. */
export const PRERENDERED_ROUTES: ReadonlyArray<{ path: string; page: string | null }> = [
  { path: '/', page: null },
  { path: '/login', page: 'src/features/session/components/LoginPage.tsx' },
  { path: '/about', page: 'src/features/about/components/AboutPage.tsx' },
  { path: '/privacy', page: 'src/app/routes/PrivacyPage.tsx' },
  { path: '/terms', page: 'src/app/routes/TermsPage.tsx' },
];

/** What a link preview shows of a page: its title and a sentence or two (<title>, description, og:). */
export interface PageMeta {
  title: string;
  description: string;
}

const READ_PAGE = 'src/features/reading/components/ReadPage.tsx';
const CONTENTS_PAGE = 'src/features/reading/components/ContentsPage.tsx';

/**
 * The reader's pages, one per part of the book and its table of contents, each with the title
 * and description a shared link shows (`/read/ch4`: "Chapter IV: … · The Alchemy of Happiness",
 * and the chapter's opening words).
 */
export function readerRoutes(book: BookReply): Array<{ path: string; page: string; meta: PageMeta }> {
  const site = book.title;
  return [
    {
      path: '/read',
      page: CONTENTS_PAGE,
      meta: { title: `Contents · ${site}`, description: `Al-Ghazzali's ${site}, ${book.edition.replace(/\.$/, '')}: ${book.parts.map((p) => p.heading.split(':')[0]).join(', ')}.` },
    },
    ...book.parts.map((part) => ({
      path: `/read/${part.slug}`,
      page: READ_PAGE,
      meta: { title: `${part.heading} · ${site}`, description: openingWords(part.paragraphs[0]?.text ?? part.heading) },
    })),
  ];
}

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The page's own <title> and description in place of index.html's, and the same for link previews (Open Graph). */
export function withMeta(template: string, meta: PageMeta): string {
  const tags = [
    `<title>${escapeText(meta.title)}</title>`,
    `<meta name="description" content="${escapeAttribute(meta.description)}" />`,
    `<meta property="og:type" content="book" />`,
    `<meta property="og:title" content="${escapeAttribute(meta.title)}" />`,
    `<meta property="og:description" content="${escapeAttribute(meta.description)}" />`,
  ].join('');
  const withoutOwn = template.replace(/<title>[^<]*<\/title>/, '').replace(/<meta name="description"[^>]*>/, '');
  if (withoutOwn === template) throw new Error('prerender: index.html has no <title> to replace');
  return withoutOwn.replace('</head>', `${tags}</head>`);
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The app, which the small entry (src/main.ts) imports. */
const APP_MODULE = 'src/boot.tsx';

/**
 * The built chunks of the given modules and everything they import, less what index.html
 * already loads: fetched together, rather than one round trip after another as each import is
 * reached.
 */
function chunksToPreload(bundle: Rollup.OutputBundle, modules: string[], root: string): string[] {
  const chunks = Object.values(bundle).filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  const loaded = new Set(chunks.filter((chunk) => chunk.isEntry).flatMap((chunk) => [chunk.fileName, ...chunk.imports]));
  const files: string[] = [];
  const visit = (fileName: string, followDynamic: boolean) => {
    if (files.includes(fileName) || loaded.has(fileName)) return;
    files.push(fileName);
    const chunk = bundle[fileName] as Rollup.OutputChunk;
    for (const imported of chunk.imports) visit(imported, false);
    if (followDynamic) for (const imported of chunk.dynamicImports) visit(imported, false);
  };
  for (const module of modules) {
    const chunk = chunks.find((c) => c.facadeModuleId === path.resolve(root, module));
    if (!chunk) throw new Error(`prerender: no chunk for ${module}`);
    // The app imports its own steps dynamically (one task each); a page's lazy imports wait.
    visit(chunk.fileName, module === APP_MODULE);
  }
  return files;
}

/** The plain shell renders nothing until the app runs: its chunks are preloaded with the HTML. */
const preloadLinks = (files: string[]) => files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');

/**
 * index.html with a route's markup in #root and its styles in <head>. The page paints from its
 * HTML alone; the app's chunks are listed on #root for the entry (src/main.ts), which preloads
 * them once that paint is on screen, so that they never compete with it.
 */
export function pageHtml(template: string, rendered: RenderedRoute, chunks: string[]): string {
  const head = [
    // The first paint shows the whole page, not the part parsed so far: one layout, before any
    // script runs, instead of a second one as the rest arrives (Chromium; others ignore it).
    '<link rel="expect" href="#root" blocking="render">',
    rendered.styles,
    // This HTML is rendered in the light theme: a reader whose system prefers dark sees the page
    // once the app has rendered it dark, not a flash of light.
    '<style>@media (prefers-color-scheme: dark) { #root[data-prerendered] { visibility: hidden } }</style>',
    // With scripts off, no app will come: show the page as it is.
    '<noscript><style>#root[data-prerendered] { visibility: visible !important }</style></noscript>',
  ].join('');
  const root = `<div id="root" data-prerendered="${escapeAttribute(JSON.stringify(rendered.state))}" data-chunks="${escapeAttribute(chunks.map((file) => `/${file}`).join(' '))}">${rendered.html}</div>`;
  if (!template.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty #root');
  return template.replace('</head>', `${head}</head>`).replace('<div id="root"></div>', () => root);
}

/**
 * Renders the public routes to HTML at build time (dist/prerendered/), so a first visit paints
 * the page from the HTML alone and the app then hydrates it. The service worker keeps serving
 * the plain shell, which renders on the client.
 */
export function prerender(): Plugin {
  let root = process.cwd();
  return {
    name: 'alchemy-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // writeBundle: after the client files are on disk, before closeBundle compresses them.
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? path.resolve(root, 'dist');
      const serverDir = path.resolve(root, 'node_modules/.cache/alchemy-prerender');
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        build: {
          ssr: path.resolve(root, 'src/prerender/render-route.tsx'),
          outDir: serverDir,
          emptyOutDir: true,
          rollupOptions: { output: { entryFileNames: 'render-route.mjs' } },
        },
      });
      const { renderRoute } = (await import(`${pathToFileURL(path.join(serverDir, 'render-route.mjs')).href}?t=${Date.now()}`)) as {
        renderRoute: (routePath: string, book?: BookReply) => Promise<RenderedRoute>;
      };
      const shell = path.join(outDir, 'index.html');
      const template = await readFile(shell, 'utf8');
      await writeFile(shell, template.replace('</head>', `${preloadLinks(chunksToPreload(bundle, [APP_MODULE], root))}</head>`));
      await mkdir(path.join(outDir, PRERENDERED_DIR), { recursive: true });
      for (const route of PRERENDERED_ROUTES) {
        const rendered = await renderRoute(route.path);
        const chunks = chunksToPreload(bundle, route.page ? [APP_MODULE, route.page] : [APP_MODULE], root);
        await writeFile(path.join(outDir, PRERENDERED_DIR, prerenderedFileName(route.path)), pageHtml(template, rendered, chunks));
      }
      // The reader's pages, with the book as the server gives it (read once, here, from corpus/).
      const book = await corpusBook(root);
      await mkdir(path.join(outDir, PRERENDERED_DIR, 'read'), { recursive: true });
      for (const route of readerRoutes(book)) {
        const rendered = await renderRoute(route.path, book);
        const chunks = chunksToPreload(bundle, [APP_MODULE, route.page], root);
        await writeFile(path.join(outDir, PRERENDERED_DIR, prerenderedFileName(route.path)), pageHtml(withMeta(template, route.meta), rendered, chunks));
      }
    },
  };
}
