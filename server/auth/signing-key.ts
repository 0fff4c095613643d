import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The access-token signing key: JWT_SECRET when set, else 256 random bits generated once and
 * kept in DATA_DIR (readable by the server's user only).
 */
export async function loadSigningKey(settings: { jwtSecret?: string; dataDir: string }): Promise<Uint8Array> {
  // Plain Uint8Array copies: jose checks the key's type against the running realm's Uint8Array.
  if (settings.jwtSecret) return new Uint8Array(Buffer.from(settings.jwtSecret, 'utf8'));
  const file = path.join(settings.dataDir, 'jwt-secret');
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
    if (key.length >= 32) return new Uint8Array(key);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  await mkdir(settings.dataDir, { recursive: true });
  await writeFile(file, key.toString('base64url') + '\n', { mode: 0o600 });
  return new Uint8Array(key);
}
