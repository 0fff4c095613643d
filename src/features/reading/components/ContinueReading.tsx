import { Link as FluentLink } from '@fluentui/react-components';
import { Link } from 'wouter';
import { useHydrated } from '../../../lib/hooks/use-hydrated.ts';
import { partNameOfSlug } from '../reader-text.ts';
import { readReadingPlace } from '../reading-place.ts';

/**
 * "Continue reading" where this device left off in the book (the part and paragraph last at the
 * top of the screen), for pages other than the reader's own; nothing where no reading was begun.
 * The place is named by its address only: the book itself is not loaded for it.
 */
export function ContinueReading() {
  const place = useHydrated() ? readReadingPlace() : null;
  if (!place) return null;
  return (
    <Link href={`/read/${place.part}#p${place.n}`} asChild>
      <FluentLink>
        Continue reading the book: {partNameOfSlug(place.part)}, paragraph {place.n}
      </FluentLink>
    </Link>
  );
}
