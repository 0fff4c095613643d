import { readStored, writeStored } from '../../lib/browser-storage.ts';

/** Where the reader left off on this device: the part and the paragraph last at the top of the screen. */
export interface ReadingPlace {
  part: string;
  n: number;
}

export const READING_PLACE_KEY = 'readingPlace';

export function readReadingPlace(): ReadingPlace | null {
  try {
    const value = JSON.parse(readStored(READING_PLACE_KEY) ?? 'null') as Partial<ReadingPlace> | null;
    if (value && typeof value.part === 'string' && /^[a-z0-9-]{1,40}$/.test(value.part) && Number.isInteger(value.n) && value.n! >= 1) {
      return { part: value.part, n: value.n! };
    }
  } catch {
    // Not ours, or spoilt: no place kept.
  }
  return null;
}

export function keepReadingPlace(place: ReadingPlace): void {
  writeStored(READING_PLACE_KEY, JSON.stringify(place));
}

/**
 * The paragraph a reader is at: the first whose bottom is below `top` (the line under the
 * navigation bar), of paragraphs in order. Null when there are none.
 */
export function paragraphAt(boxes: Array<{ n: number; bottom: number }>, top: number): number | null {
  return boxes.find((b) => b.bottom > top)?.n ?? boxes.at(-1)?.n ?? null;
}
