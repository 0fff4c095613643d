import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The client's layout (docs/client.md): src/app (the shell, its routes and providers) and the
 * entries on top, the features beneath, the shared pieces at the bottom. Paths from the repository.
 */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const CLIENT_ENTRIES = ['./src/main.ts', './src/boot.tsx', './src/prerender'];
const CLIENT_SHARED = ['./src/lib', './src/components', './src/early'];

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
    message: 'Shared code (src/lib, src/components, src/early) never imports a feature or the app: pass what it needs in, or move it into the feature.',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'dist-earlier', 'dist-server', 'data', 'models', 'node_modules', 'coverage', 'test-results', 'dev-dist', 'scratch'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['sw/**/*.ts'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  // The client's layers inside src/ (CLIENT_ZONES above; docs/client.md, "Rules"). Its own block:
  // a rule's options in a later block replace an earlier block's for the files both match, so
  // when a block for the whole repository restricts paths too, spread CLIENT_ZONES into its zones.
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: CLIENT_ZONES }],
    },
  },
);
