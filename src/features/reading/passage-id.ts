import { decodePathname } from '../../../contract/app-paths.ts';

/**
 * The passage id a /read/ link names: its escapes undone (as the server reads a path), and
 * without the punctuation a link copied from a sentence brings along (no id ends with any).
 */
export function passageIdOf(segment: string): string {
  return (decodePathname(segment) ?? segment).replace(/[.,;:!?)\]'"’”]+$/u, '');
}
