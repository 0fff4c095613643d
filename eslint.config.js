import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layer map (docs/architecture.md, "Layers"), lowest first. A file may import from its own
 * part and from any part of a lower layer; never from a higher layer, nor from another part of
 * its own layer. tests/ stand above all and may import anything. Inside server/modules, each
 * module is walled off by MODULE_ZONES: the rest reaches it only through its index.ts.
 */
export const LAYERS = [
  ['contract'],
  ['common'],
  ['server/platform'],
  ['server/modules'],
  ['server/services.ts'],
  ['server/app.ts'],
  ['server/main.ts', 'server/build-indexes-worker.ts', 'server/cli', 'server/eval'],
  ['scripts'],
  ['vite.config.ts', 'bench'],
  ['tests'],
];

/** The server's modules (docs/architecture.md, "Modules"): one concept a folder, reached only through its index.ts. */
export const MODULES = readdirSync(new URL('./server/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** Everything above the modules but the tests: it may use a module only through its index.ts. */
const ABOVE_MODULES = LAYERS.slice(LAYERS.findIndex((layer) => layer.includes('server/modules')) + 1)
  .flat()
  .filter((part) => part !== 'tests');

/** import-x/no-restricted-paths zones for server/modules: nothing outside a module imports its insides. */
export const MODULE_ZONES = MODULES.map((module) => ({
  target: [...MODULES.filter((other) => other !== module).map((other) => `./server/modules/${other}`), ...ABOVE_MODULES.map((part) => `./${part}`)],
  from: `./server/modules/${module}`,
  except: ['./index.ts'],
  message: `Another module, app.ts, main.ts, cli/, eval/ or a script uses server/modules/${module} only through its index.ts (export what you need there).`,
}));

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

/**
 * The client's layout (docs/client.md): src/app (the shell, its routes and providers) and the
 * entries on top, the features beneath, the shared pieces at the bottom. Paths from the repository.
 */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const CLIENT_ENTRIES = ['./src/main.ts', './src/boot.tsx', './src/prerender'];
const CLIENT_SHARED = ['./src/lib', './src/components'];

/** import-x/no-restricted-paths zones for src/: what each part of the client may not import. */
export const CLIENT_ZONES = [
  {
    target: './src/features',
    from: ['./src/app', ...CLIENT_ENTRIES],
    message: 'A feature never imports the app (its shell, routes, entries): the app composes features, not the other way round.',
  },
  ...FEATURES.flatMap((feature) =>
    FEATURES.filter((other) => other !== feature).map((other) => ({
      target: `./src/features/${feature}`,
      from: `./src/features/${other}`,
      except: ['./index.ts'],
      message: `A feature uses another only through its public entry: import from src/features/${other}/index.ts (add what you need there).`,
    })),
  ),
  {
    target: CLIENT_SHARED,
    from: ['./src/features', './src/app', ...CLIENT_ENTRIES],
    message: 'Shared code (src/lib, src/components) never imports a feature or the app: pass what it needs in, or move it into the feature.',
  },
];

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
      // The repository's layers, the server's module walls, then the client's own inside src/ (CLIENT_ZONES; docs/client.md, "Rules").
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...layerZones(), ...MODULE_ZONES, clientZone, ...CLIENT_ZONES] }],
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
