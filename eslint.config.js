import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layer map (docs/architecture.md, "Layers"), lowest first. A file may import from its own
 * part and from any part of a lower layer; never from a higher layer, nor from another part of
 * its own layer. tests/ stand above all and may import anything.
 */
export const LAYERS = [
  ['contract'],
  ['common'],
  ['server/common', 'server/log.ts', 'server/types'],
  ['server/corpus'],
  ['server/config.ts'],
  ['server/models'],
  ['server/vectors'],
  ['server/search', 'server/stats'],
  ['server/store'],
  ['server/auth'],
  ['server/http'],
  ['server/routes', 'server/admin', 'server/bootstrap.ts'],
  ['server/app.ts'],
  ['server/main.ts', 'server/build-indexes-worker.ts', 'server/cli', 'server/eval'],
  ['scripts'],
  ['vite.config.ts', 'bench'],
  ['tests'],
];

/** The client (the PWA and its service worker): beside the layers, it never imports server code or build scripts. */
export const CLIENT = ['src', 'sw'];
const CLIENT_NEVER_IMPORTS = ['server', 'scripts'];
/** The parts that may import the client: the build renders its pages (scripts/prerender.ts) and bundles it. */
const BUILDS_THE_CLIENT = ['scripts', 'vite.config.ts', 'tests'];

/** import-x/no-restricted-paths zones from the map: for each part, what lies above it or beside it. */
export function layerZones(layers = LAYERS) {
  return layers.flatMap((layer, rank) =>
    layer
      .map((part) => ({
        target: `./${part}`,
        from: [...layer.filter((other) => other !== part), ...layers.slice(rank + 1).flat(), ...(BUILDS_THE_CLIENT.includes(part) ? [] : CLIENT)].map(
          (from) => `./${from}`,
        ),
        message: `${part} may import only from lower layers (docs/architecture.md, "Layers"): move what both need down, or pass it in.`,
      }))
      .filter((zone) => zone.from.length > 0),
  );
}

const clientZone = {
  target: CLIENT.map((part) => `./${part}`),
  from: CLIENT_NEVER_IMPORTS.map((part) => `./${part}`),
  message: 'The client never imports server code or build scripts: what both need lives in contract/.',
};

export default tseslint.config(
  { ignores: ['dist', 'dist-earlier', 'dist-server', 'data', 'models', 'node_modules', 'coverage', 'test-results', 'dev-dist', 'scratch'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      // Every import names its file with the extension; the parser reads TypeScript so that no-cycle follows .ts files too.
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...layerZones(), clientZone] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // One job per module: a server or script file past 300 lines is doing more than one (data ships as data files).
    files: ['server/**/*.{ts,mts,mjs}', 'scripts/**/*.{ts,mts,mjs}'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    // common/ runs in the browser too (the offline search's worker): no Node modules.
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'common/ runs in the browser too: pass in what needs Node (docs/offline.md).' }] }],
    },
  },
  {
    files: ['sw/**/*.ts'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
);
