import { chmod, mkdir, stat } from 'node:fs/promises';

/**
 * Makes `dir` (DATA_DIR: the embedded database with its password hashes and signing keys, the
 * admin socket) reachable by this user only, as PostgreSQL does its data folder: created 0700, and
 * an existing one open to others closed to 0700. Says what it was when it had to close it.
 */
export async function makePrivateDir(dir: string): Promise<{ wasMode?: string }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { mode, uid } = await stat(dir);
  if ((mode & 0o077) === 0) return {};
  // A folder another user owns (given by the operator on purpose) is theirs to set.
  if (process.getuid && uid !== process.getuid()) return {};
  await chmod(dir, 0o700);
  return { wasMode: (mode & 0o777).toString(8) };
}
