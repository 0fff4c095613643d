import { readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/**
 * What `npm start` runs after its build step, read from package.json: the environment it sets
 * (`NAME=value` before the command), and node's arguments.
 */
export function startCommand(): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const word = words.shift()!;
    const at = word.indexOf('=');
    env[word.slice(0, at)] = word.slice(at + 1);
  }
  // `exec`: the shell npm runs the script in becomes node, so a signal to npm reaches the server.
  if (words[0] === 'exec') words.shift();
  const [command, ...args] = words;
  if (command !== 'node') throw new Error(`npm start runs "${command}", not node: update scripts/start-command.ts`);
  return { env, args };
}
