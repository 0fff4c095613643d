/**
 * Characters that show nothing: whitespace, the invisible format characters (zero-width space,
 * joiners, the byte order mark, bidirectional marks, soft hyphen: Unicode's Cf), and the blank
 * letters and symbols (the Hangul fillers, the blank Braille pattern).
 */
const INVISIBLE = /^[\s\p{Cf}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

/** Whether `text` shows nothing at all: empty, or only spaces and invisible characters. */
export function isBlankText(text: string): boolean {
  return INVISIBLE.test(text);
}
