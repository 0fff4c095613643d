import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's root folder, where files it ships sit (the book, the thesaurus's data): the
 * nearest folder above `from` holding a package.json, so that a path from it holds from the
 * sources (server/…), from the build (dist-server/, or a chunk below it) and whatever folder the
 * server was started from; the working folder where there is none.
 */
export function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}
