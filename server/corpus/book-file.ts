import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The book that ships with the project, `corpus/alchemy-of-happiness.md` at the package's root.
 * The root is found by walking up from this module to the nearest package.json, so the path holds
 * from the sources (server/corpus/) and from the build (dist-server/, or a chunk below it), and
 * whatever folder the server was started from.
 */
export function shippedBookFile(from: string = import.meta.dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('corpus/alchemy-of-happiness.md');
    dir = parent;
  }
  return path.join(dir, 'corpus/alchemy-of-happiness.md');
}
