import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setPrefersDark } from './setup.ts';

async function freshThemeStore() {
  vi.resetModules();
  return (await import('../../src/lib/theme/theme-store.ts')).useTheme;
}

describe('theme store', () => {
  beforeEach(() => setPrefersDark(false));

  it('starts from the stored themeMode', async () => {
    window.localStorage.setItem('themeMode', 'dark');
    expect((await freshThemeStore()).getState().themeMode).toBe('dark');
  });

  it('else follows the system’s dark preference', async () => {
    setPrefersDark(true);
    expect((await freshThemeStore()).getState().themeMode).toBe('dark');
    setPrefersDark(false);
    expect((await freshThemeStore()).getState().themeMode).toBe('light');
  });

  it('persists each toggle', async () => {
    const useTheme = await freshThemeStore();
    useTheme.getState().toggleTheme();
    expect(window.localStorage.getItem('themeMode')).toBe('dark');
    useTheme.getState().toggleTheme();
    expect(window.localStorage.getItem('themeMode')).toBe('light');
    expect(useTheme.getState().themeMode).toBe('light');
  });
});
