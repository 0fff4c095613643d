import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { EARLY_INPUT_SCRIPT } from './contract/early-input-script.ts';
import { precompress } from './scripts/precompress.ts';
import { prerender } from './scripts/prerender.ts';
import { sourceRepositoryUrl, type RepositoryField } from './scripts/source-url.ts';
import { PRERENDERED_DIR } from './server/platform/http/prerendered-pages.ts';

// One source of truth for the web app manifest: the top-level file.
const manifest = JSON.parse(readFileSync(new URL('./manifest.webmanifest', import.meta.url), 'utf8')) as Partial<ManifestOptions>;
const { repository } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { repository?: RepositoryField };

export default defineConfig({
  // The source link: VITE_SOURCE_URL, else package.json's repository, else none (the link is left out).
  define: { 'import.meta.env.VITE_SOURCE_URL': JSON.stringify(sourceRepositoryUrl(process.env.VITE_SOURCE_URL, repository) ?? '') },
  plugins: [
    react(),
    {
      // First in <head>, before anything can be tapped: keeps taps until the app takes over.
      name: 'early-input',
      transformIndexHtml: () => [{ tag: 'script', children: EARLY_INPUT_SCRIPT, injectTo: 'head-prepend' }],
    },
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Pre-rendered pages are for first visits from the network; offline, the shell renders.
        globIgnores: ['**/*.map', `${PRERENDERED_DIR}/**`],
      },
      devOptions: { enabled: false },
    }),
    prerender(),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Fluent's Label is shared by the shell's Spinner and the pages' form fields: left to itself,
    // the bundler gave it and the pieces it shares (Griffel, React's JSX runtime, ...) five small
    // chunks of their own in the first load, which compress worse than one. One group keeps them
    // with the Spinner: 23 files and 145,721 bytes gzipped became 18 and 144,665
    // (bench/measure-bundle.ts). Every module in it is in the first load anyway.
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'fluent-base', test: /@fluentui[\\/]react-(spinner|label)[\\/]/ }] } },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
