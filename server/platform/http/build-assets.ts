import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where the build puts its content-hashed files (the app's code and styles), under the static root. */
export const ASSETS_DIR = 'assets';

/**
 * Where the build keeps the hashed files of the few builds before the current one
 * (scripts/keep-earlier-assets.ts): beside the build's own folder, which each build empties
 * (`dist` → `dist-earlier/assets`). A page loaded before a new build, or from an instance not yet
 * restarted onto it, still finds the code it asks for there.
 */
export function earlierAssetsDir(staticDir: string): string {
  return path.join(path.dirname(staticDir), `${path.basename(staticDir)}-earlier`, ASSETS_DIR);
}

/** A hashed file's name as the build writes it: no folder, no dot file, nothing to escape with. */
const ASSET_NAME = /^\/assets\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/;

/**
 * The folder holding the asset at this (decoded) path, if one does now: the build's own (a file
 * written after this process started: a new build, served before this instance restarts onto
 * it) or the earlier builds' (a file the new build no longer has, asked for by a page loaded
 * before it). Undefined for any other path or a file found nowhere.
 */
export function folderOfAsset(staticDir: string, urlPath: string): { root: string; name: string } | undefined {
  const name = ASSET_NAME.exec(urlPath)?.[1];
  if (!name) return undefined;
  for (const root of [path.join(staticDir, ASSETS_DIR), earlierAssetsDir(staticDir)]) {
    if (existsSync(path.join(root, name))) return { root, name };
  }
  return undefined;
}
