/** The API's base address: a build-time setting, by default this origin's /api. */
let base: string = (import.meta.env.VITE_API_BASE_URL as string | undefined) || '/api';

export function apiUrl(path: string): string {
  return `${base.replace(/\/$/, '')}${path}`;
}

/** For tests that point the client at a server of their own. */
export function setApiBase(url: string): void {
  base = url;
}
