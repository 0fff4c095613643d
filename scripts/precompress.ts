import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/**
 * Writes .gz and .br beside every text file of the build, once, at build time, so that the
 * server sends compressed files without compressing on every request.
 */
export function precompress(outDir = 'dist'): Plugin {
  return {
    name: 'alchemy-precompress',
    apply: 'build',
    enforce: 'post',
    async closeBundle() {
      for await (const file of files(path.resolve(outDir))) {
        if (!COMPRESSIBLE.test(file) || (await stat(file)).size < 1024) continue;
        const body = await readFile(file);
        await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
        await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}
