import { create } from 'zustand';
import { readStored, writeStored } from '../../lib/browser-storage.ts';

/** The reader's page: its paper (light, sepia or dark) and its type size, kept per device. */
export type Tone = 'light' | 'sepia' | 'dark';
export const TONES: ReadonlyArray<{ tone: Tone; label: string }> = [
  { tone: 'light', label: 'Light' },
  { tone: 'sepia', label: 'Sepia' },
  { tone: 'dark', label: 'Dark' },
];
/** Type sizes, in CSS pixels; the third is where a reader starts. */
export const FONT_SIZES = [16, 18, 20, 22, 24, 27] as const;
export const DEFAULT_SIZE = 2;

export const READER_SETTINGS_KEY = 'readerSettings';

export interface ReaderSettings {
  /** null until the reader chooses: the page then follows the app's light or dark theme. */
  tone: Tone | null;
  /** An index into FONT_SIZES. */
  size: number;
}

export function parseReaderSettings(stored: string | null): ReaderSettings {
  try {
    const value = JSON.parse(stored ?? '{}') as Partial<ReaderSettings>;
    const tone = TONES.some((t) => t.tone === value.tone) ? (value.tone as Tone) : null;
    const size = Number.isInteger(value.size) && value.size! >= 0 && value.size! < FONT_SIZES.length ? value.size! : DEFAULT_SIZE;
    return { tone, size };
  } catch {
    return { tone: null, size: DEFAULT_SIZE };
  }
}

interface ReaderSettingsState extends ReaderSettings {
  setTone(tone: Tone): void;
  /** One step larger (+1) or smaller (-1), within FONT_SIZES. */
  resize(step: 1 | -1): void;
}

const keep = (settings: ReaderSettings) => writeStored(READER_SETTINGS_KEY, JSON.stringify(settings));

export const useReaderSettings = create<ReaderSettingsState>()((set, get) => ({
  ...parseReaderSettings(typeof window === 'undefined' ? null : readStored(READER_SETTINGS_KEY)),
  setTone(tone) {
    set({ tone });
    keep({ tone, size: get().size });
  },
  resize(step) {
    const size = Math.min(FONT_SIZES.length - 1, Math.max(0, get().size + step));
    set({ size });
    keep({ tone: get().tone, size });
  },
}));
