/** What package.json's `repository` may hold: npm's shorthand or `{ type, url }`. */
export type RepositoryField = string | { url?: string } | undefined;

/**
 * The address the app links to as its source: `VITE_SOURCE_URL` when set, else package.json's
 * `repository` as a browsable https address, else none — the link is then left out rather than
 * pointing somewhere nobody has claimed.
 */
export function sourceRepositoryUrl(envUrl: string | undefined, repository: RepositoryField): string | undefined {
  const given = envUrl?.trim();
  if (given) return given;
  const raw = (typeof repository === 'string' ? repository : repository?.url)?.trim();
  if (!raw) return undefined;
  const shorthand = /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(raw) ?? /^()([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (shorthand) {
    const host = { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org', '': 'github.com' }[shorthand[1]!]!;
    return `https://${host}/${shorthand[2]!.replace(/\.git$/, '')}`;
  }
  const url = raw
    .replace(/^git\+/, '')
    .replace(/^git@([^:]+):/, 'https://$1/')
    .replace(/^(git|ssh):\/\/(git@)?/, 'https://')
    .replace(/\.git$/, '');
  return /^https?:\/\//.test(url) ? url : undefined;
}
