/** localStorage keys the spec names. */
export const STORAGE_KEYS = { authTokens: 'authTokens', userType: 'userType', themeMode: 'themeMode', serverClockOffset: 'serverClockOffset' } as const;

/** Reads a stored value; storage that is missing, full or blocked reads as nothing. */
export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full disk: the session still works for this tab.
  }
}
