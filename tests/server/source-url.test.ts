// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { sourceRepositoryUrl } from '../../scripts/source-url.ts';

describe('the source link', () => {
  it('is VITE_SOURCE_URL when set', () => {
    expect(sourceRepositoryUrl('https://example.org/ours', 'github:someone/else')).toBe('https://example.org/ours');
  });

  it('else comes from package.json’s repository, in any of npm’s forms, as a browsable address', () => {
    expect(sourceRepositoryUrl(undefined, 'github:reader/alchemy')).toBe('https://github.com/reader/alchemy');
    expect(sourceRepositoryUrl(undefined, 'reader/alchemy')).toBe('https://github.com/reader/alchemy');
    expect(sourceRepositoryUrl(undefined, 'gitlab:reader/alchemy')).toBe('https://gitlab.com/reader/alchemy');
    expect(sourceRepositoryUrl('', { url: 'git+https://codeberg.org/reader/alchemy.git' })).toBe('https://codeberg.org/reader/alchemy');
    expect(sourceRepositoryUrl(undefined, { url: 'git@github.com:reader/alchemy.git' })).toBe('https://github.com/reader/alchemy');
    expect(sourceRepositoryUrl(undefined, { url: 'git://github.com/reader/alchemy.git' })).toBe('https://github.com/reader/alchemy');
  });

  it('is left out where neither names one, never made up', () => {
    expect(sourceRepositoryUrl(undefined, undefined)).toBeUndefined();
    expect(sourceRepositoryUrl('  ', {})).toBeUndefined();
    expect(sourceRepositoryUrl(undefined, { url: 'file:../elsewhere' })).toBeUndefined();
  });

});
