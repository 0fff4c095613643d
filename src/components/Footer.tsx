import { useHydrated } from '../lib/hooks/use-hydrated.ts';
import { makeStyles, tokens } from '@fluentui/react-components';
import { Link } from 'wouter';
import { BOOK_SOURCE_URL, SOURCE_REPOSITORY_URL } from '../lib/constants.ts';

const useStyles = makeStyles({
  footer: {
    marginTop: 'auto',
    padding: `${tokens.spacingVerticalXL} ${tokens.spacingHorizontalL}`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground2,
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalL,
    justifyContent: 'space-between',
    alignItems: 'center',
    fontSize: tokens.fontSizeBase200,
  },
  group: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
  link: { color: tokens.colorBrandForegroundLink },
});

const SHARE_TEXT = encodeURIComponent("Search Al-Ghazali's The Alchemy of Happiness by meaning");

export function Footer() {
  const styles = useStyles();
  const year = new Date().getFullYear();
  // The site's address is known in the browser only: the pre-rendered page gets it once taken over.
  const here = useHydrated() ? encodeURIComponent(window.location.origin) : '';
  return (
    <footer className={styles.footer}>
      <div className={styles.group} aria-label="Links">
        {SOURCE_REPOSITORY_URL && (
          <a className={styles.link} href={SOURCE_REPOSITORY_URL} target="_blank" rel="noreferrer">
            Source code
          </a>
        )}
        <a className={styles.link} href={BOOK_SOURCE_URL} target="_blank" rel="noreferrer">
          The book at sacred-texts
        </a>
        <a className={styles.link} href={`https://x.com/intent/post?text=${SHARE_TEXT}&url=${here}`} target="_blank" rel="noreferrer">
          Share on X
        </a>
        <a className={styles.link} href={`mailto:?subject=${SHARE_TEXT}&body=${here}`}>
          Share by email
        </a>
      </div>
      <div className={styles.group}>
        <Link className={styles.link} href="/privacy">
          Privacy
        </Link>
        <Link className={styles.link} href="/terms">
          Terms
        </Link>
      </div>
      <p>© {year} Alchemy of Happiness Semantic Search. Claud Field’s translation (1909) is in the public domain.</p>
    </footer>
  );
}
