import { Button, makeStyles, mergeClasses, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { useState } from 'react';
import { useEarlyAction } from '../../../lib/early-input.ts';
import { savePassage } from '../../saved/index.ts';
import type { Book, BookParagraph, BookPart } from '../book.ts';
import { citation, paragraphPath, pieces, type Mark } from '../reader-text.ts';

export type CopyOutcome = 'copied' | 'refused' | 'saved';

const useStyles = makeStyles({
  paragraph: {
    position: 'relative',
    margin: '0 0 1em',
    textAlign: 'start',
    hyphens: 'auto',
    overflowWrap: 'break-word',
    // Focused by the reader when it opens here, never by Tab.
    outline: 'none',
  },
  verse: { whiteSpace: 'pre-line', marginInlineStart: '2em', fontStyle: 'normal' },
  list: { whiteSpace: 'pre-line', marginInlineStart: '1em' },
  // The paragraph's number opens its actions: at its start on a phone, in the margin on a wide screen.
  number: {
    minWidth: 'auto',
    height: 'auto',
    padding: '0 0.3em',
    marginInlineEnd: '0.3em',
    verticalAlign: 'baseline',
    fontFamily: 'inherit',
    fontSize: '0.7em',
    lineHeight: 'inherit',
    fontWeight: 'normal',
    // Small text: the ink itself (at least 7:1 on every paper), not the muted tone; and no fade
    // between papers (Fluent's button eases its colours: half-way, it is unreadable).
    color: 'var(--reader-ink)',
    transitionProperty: 'none',
    backgroundColor: 'transparent',
    border: '1px solid transparent',
    ':hover': { color: 'var(--reader-ink)', backgroundColor: 'transparent', border: '1px solid var(--reader-rule)' },
    ':hover:active': { color: 'var(--reader-ink)', backgroundColor: 'transparent' },
    '@media (min-width: 900px)': { position: 'absolute', insetInlineEnd: '100%', top: '0.25em', marginInlineEnd: '0.6em' },
  },
  mark: {
    backgroundColor: 'var(--reader-mark)',
    color: 'inherit',
    borderRadius: '2px',
    boxDecorationBreak: 'clone',
    padding: '0.05em 0',
    textDecorationLine: 'underline',
    textDecorationThickness: '2px',
    textUnderlineOffset: '3px',
  },
  // Read by screen readers, not shown.
  unseen: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' },
  page: { fontSize: '0.7em', color: 'var(--reader-muted)', whiteSpace: 'nowrap', fontStyle: 'normal' },
  noteMark: { fontSize: '0.75em', lineHeight: 0, '& a': { textDecorationLine: 'none', padding: '0 0.15em' } },
});

async function copyText(text: string): Promise<CopyOutcome> {
  try {
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'refused';
  }
}

/**
 * One paragraph of the book at its address (id `p12`, so /read/ch4#p12 lands on it): italics,
 * footnote marks linking to the chapter's notes, the pages of 1909 where they begin, and the
 * sentence a search result marked. Its number opens what can be done with it.
 */
export function Paragraph(props: {
  book: Book;
  part: BookPart;
  paragraph: BookParagraph;
  mark: Mark | null;
  noteNumber: (label: string) => number;
  /** Each note's first mark (its paragraph): the note links back there. */
  firstMarks: Map<string, number>;
  onCopied: (outcome: CopyOutcome) => void;
}) {
  const styles = useStyles();
  const { book, part, paragraph: p, mark, noteNumber, firstMarks, onCopied } = props;
  const kind = p.kind === 'verse' ? styles.verse : p.kind === 'list' ? styles.list : undefined;
  const seen = new Set<string>();
  // The number is a control of a pre-rendered page: pressed before the app has taken the page
  // over, its menu opens once it has (contract/early-input-script.ts).
  const action = `paragraph-${p.n}`;
  const [open, setOpen] = useState(false);
  useEarlyAction(action, () => setOpen(true));
  return (
    <p id={`p${p.n}`} data-paragraph={p.n} tabIndex={-1} className={mergeClasses(styles.paragraph, kind)}>
      <Menu positioning="below-start" open={open} onOpenChange={(_, data) => setOpen(data.open)}>
        <MenuTrigger disableButtonEnhancement>
          <Button className={styles.number} appearance="transparent" aria-label={`Paragraph ${p.n}: copy, share or save`} data-early-action={action}>
            {p.n}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem onClick={() => void copyText(citation(book, part, p, window.location.origin)).then(onCopied)}>Copy with citation</MenuItem>
            <MenuItem onClick={() => void copyText(`${window.location.origin}${paragraphPath(part, p.n)}`).then(onCopied)}>Copy link to this paragraph</MenuItem>
            <MenuItem
              onClick={() =>
                void savePassage({ anchor: `${part.slug}#p${p.n}`, chapter: part.heading, excerpt: p.text.slice(0, 240), note: '' }).then(() => onCopied('saved'))
              }
            >
              Save this paragraph
            </MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
      {mark && <span className={styles.unseen}>The passage your search found is marked. </span>}
      {pieces(p, noteNumber, mark).map((piece, i) => {
        if (piece.kind === 'page') {
          return (
            <span key={i} className={styles.page} data-page={piece.page}>
              [p.&nbsp;{piece.page}]{' '}
            </span>
          );
        }
        if (piece.kind === 'note') {
          // The note's first mark is where its "back" link returns to.
          const first = firstMarks.get(piece.label) === p.n && !seen.has(piece.label);
          seen.add(piece.label);
          return (
            <sup key={i} className={styles.noteMark}>
              <a id={first ? `ref-${piece.label}` : undefined} href={`#note-${piece.label}`} aria-label={`Note ${piece.number}`}>
                {piece.number}
              </a>
            </sup>
          );
        }
        const text = piece.italic ? <i>{piece.text}</i> : piece.text;
        return piece.marked ? (
          <mark key={i} className={styles.mark} data-testid="marked-sentence">
            {text}
          </mark>
        ) : (
          <span key={i}>{text}</span>
        );
      })}
    </p>
  );
}
