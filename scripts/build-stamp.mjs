// npm start builds only when something the build reads has changed since the last build:
// `build-if-stale` (npm start's prestart) compares a hash of the build's inputs with the one the
// last build wrote (`write`, the build's last step) and runs `npm run build` only when they differ
// or an output is missing. Plain JavaScript, so that checking costs no TypeScript loader.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(root, 'dist', '.build-stamp');
/** What the client and server builds read. */
const INPUT_DIRS = ['src', 'server', 'sw', 'contract', 'scripts', 'public'];
const INPUT_FILES = ['index.html', 'manifest.webmanifest', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
/** Build-time settings baked into the client. */
const INPUT_ENV = ['VITE_API_BASE_URL', 'VITE_SOURCE_URL'];
/** Without these there is nothing to start. */
const OUTPUTS = ['dist/index.html', 'dist-server/main.js', 'dist-server/build-indexes-worker.js', 'dist-server/pgdata-template/PG_VERSION'];

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map((name) => path.join(dir, String(name)))
    .filter((file) => statSync(file).isFile());
}

/** A hash of every input file's path and content, and of the build-time settings. */
export function buildInputsHash(base = root) {
  const hash = createHash('sha256');
  const files = [
    ...INPUT_DIRS.flatMap((dir) => filesUnder(path.join(base, dir))),
    ...INPUT_FILES.map((file) => path.join(base, file)).filter((file) => existsSync(file)),
  ].sort();
  for (const file of files) hash.update(path.relative(base, file)).update('\0').update(readFileSync(file)).update('\0');
  for (const name of INPUT_ENV) hash.update(`${name}=${process.env[name] ?? ''}\0`);
  return hash.digest('hex');
}

export function isBuildCurrent(base = root) {
  const stamp = path.join(base, 'dist', '.build-stamp');
  if (!existsSync(stamp) || OUTPUTS.some((file) => !existsSync(path.join(base, file)))) return false;
  return readFileSync(stamp, 'utf8').trim() === buildInputsHash(base);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const command = process.argv[2];
  if (command === 'write') {
    writeFileSync(STAMP, buildInputsHash() + '\n');
  } else if (command === 'build-if-stale') {
    if (isBuildCurrent()) {
      console.log('The build is current: starting it (npm run build rebuilds by hand).');
    } else {
      // Another user than the build's owner (a service account) cannot build here: one sentence, not a stack.
      try {
        accessSync(root, constants.W_OK);
      } catch {
        console.error(`The build is missing or older than the sources, and this user cannot write to ${root} to build it: run \`npm run build\` there as its owner.`);
        process.exit(1);
      }
      console.log('Sources changed since the last build (or there is none): building.');
      // The build's own output (a line for every file it writes, about a hundred) is kept back: a
      // first start shows a person a few lines up to its address, and the whole of it only when
      // the build fails, which is when it is read.
      const started = Date.now();
      const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 2 ** 20 });
      if (result.status !== 0) {
        process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
        console.error(`The build failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}): its output is above.`);
        process.exit(result.status || 1);
      }
      console.log(`Built in ${((Date.now() - started) / 1000).toFixed(0)} s (npm run build shows each file it writes).`);
    }
  } else {
    console.error('Usage: node scripts/build-stamp.mjs write | build-if-stale');
    process.exit(2);
  }
}
