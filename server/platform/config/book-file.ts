import path from 'node:path';
import { packageRoot } from '../util/package-root.ts';

/**
 * The book that ships with the project, `corpus/alchemy-of-happiness.md` at the package's root
 * (packageRoot: found from the sources and from the build alike).
 */
export function shippedBookFile(from: string = import.meta.dirname): string {
  return path.join(packageRoot(from), 'corpus/alchemy-of-happiness.md');
}
