import { create } from 'zustand';
import { readStored, STORAGE_KEYS, writeStored } from '../browser-storage.ts';

export type ThemeMode = 'light' | 'dark';

export interface ThemeState {
  themeMode: ThemeMode;
  toggleTheme(): void;
}

/** The stored choice, else the system's dark preference. */
export function initialThemeMode(): ThemeMode {
  const stored = readStored(STORAGE_KEYS.themeMode);
  if (stored === 'dark' || stored === 'light') return stored;
  // Pre-rendering at build time has no window: it renders the light theme.
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return 'light';
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export const useTheme = create<ThemeState>()((set, get) => ({
  themeMode: initialThemeMode(),
  toggleTheme() {
    const themeMode: ThemeMode = get().themeMode === 'dark' ? 'light' : 'dark';
    writeStored(STORAGE_KEYS.themeMode, themeMode);
    set({ themeMode });
  },
}));
