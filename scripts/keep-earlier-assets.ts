// The build's first step: before a new build empties dist/, the hashed files of the build there now
// are kept in dist-earlier/assets, with those of the builds before it, so that a page still open
// on an earlier build (a tab left open over a deploy, or a page from an instance not yet restarted
// onto the new build) finds the code it loads on demand. The server looks there for an asset it
// does not have (server/platform/http/build-assets.ts).
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ASSETS_DIR, earlierAssetsDir } from '../server/platform/http/build-assets.ts';

/** How many builds before the current one stay loadable. */
export const EARLIER_BUILDS_KEPT = 3;

/** The record of which files each kept build had, newest first, beside their folder. */
const RECORD_FILE = 'builds.json';

/**
 * The builds to keep, newest first, once the build about to be replaced (`current`, its files'
 * names) joins them: the same build twice (a rebuild of the same code) counts once.
 */
export function buildsToKeep(recorded: string[][], current: string[], kept = EARLIER_BUILDS_KEPT): string[][] {
  // Both lists sorted (namesIn), so the same files are the same text.
  const same = current.join('\n') === recorded[0]?.join('\n');
  const builds = current.length === 0 || same ? recorded : [current, ...recorded];
  return builds.slice(0, kept);
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

async function recordedBuilds(file: string): Promise<string[][]> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    const valid = Array.isArray(value) && value.every((build) => Array.isArray(build) && build.every((name) => typeof name === 'string'));
    return valid ? (value as string[][]) : [];
  } catch {
    return [];
  }
}

/**
 * Copies the current build's hashed files into the earlier builds' folder, and deletes from it the
 * files no kept build has. Returns how many builds and files are kept.
 */
export async function keepEarlierAssets(staticDir: string): Promise<{ builds: number; files: number }> {
  const earlier = earlierAssetsDir(staticDir);
  const current = await namesIn(path.join(staticDir, ASSETS_DIR));
  const record = path.join(path.dirname(earlier), RECORD_FILE);
  const builds = buildsToKeep(await recordedBuilds(record), current);
  if (builds.length === 0) return { builds: 0, files: 0 };
  await mkdir(earlier, { recursive: true });
  const present = new Set(await namesIn(earlier));
  for (const name of current) {
    if (!present.has(name)) await copyFile(path.join(staticDir, ASSETS_DIR, name), path.join(earlier, name));
  }
  const keep = new Set(builds.flat());
  for (const name of await namesIn(earlier)) {
    if (!keep.has(name)) await rm(path.join(earlier, name), { force: true });
  }
  await writeFile(record, `${JSON.stringify(builds)}\n`);
  return { builds: builds.length, files: keep.size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const staticDir = path.resolve(process.argv[2] ?? 'dist');
  const { builds, files } = await keepEarlierAssets(staticDir);
  if (builds > 0) {
    console.log(`Kept ${files} files of the ${builds} previous build(s) in ${path.relative(process.cwd(), earlierAssetsDir(staticDir))}, for pages still open on them.`);
  }
}
