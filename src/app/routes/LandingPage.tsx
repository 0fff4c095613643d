import { Body1, Button, LargeTitle, makeStyles, Subtitle1, tokens } from '@fluentui/react-components';
import { Link, useLocation } from 'wouter';
import { DEFAULT_HERO_HEIGHT, MAIN_ID } from '../../lib/constants.ts';
import { useEarlyAction } from '../../lib/early-input.ts';
import { EXAMPLE_QUESTIONS, searchAddress } from '../../features/search/example-questions.ts';
import { useSession } from '../../features/session/index.ts';

const useStyles = makeStyles({
  hero: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    textAlign: 'center',
    gap: tokens.spacingVerticalL,
    padding: `0 ${tokens.spacingHorizontalXL}`,
    outline: 'none',
    backgroundImage: `radial-gradient(circle at 50% 30%, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground1} 70%)`,
  },
  title: { fontFamily: 'Georgia, "Times New Roman", serif', color: tokens.colorBrandForeground1 },
  tagline: { maxWidth: '40rem', color: tokens.colorNeutralForeground2 },
  examples: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS, maxWidth: '40rem' },
  exampleList: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  // Fluent's Link, drawn by hand: its component would put about 1.5 KB (gzipped) more into every
  // page's first load for these few links (docs/benchmarks.md).
  example: {
    fontSize: tokens.fontSizeBase400,
    color: tokens.colorBrandForegroundLink,
    textDecorationLine: 'none',
    textDecorationThickness: tokens.strokeWidthThin,
    ':hover': { textDecorationLine: 'underline', color: tokens.colorBrandForegroundLinkHover },
    ':active': { textDecorationLine: 'underline', color: tokens.colorBrandForegroundLinkPressed },
    ':focus-visible': {
      outlineStyle: 'none',
      textDecorationLine: 'underline',
      textDecorationStyle: 'double',
      textDecorationColor: tokens.colorStrokeFocus2,
    },
  },
});

export default function LandingPage({ height = DEFAULT_HERO_HEIGHT }: { height?: string }) {
  const styles = useStyles();
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const [path, navigate] = useLocation();
  const begin = () => navigate(isAuthenticated ? '/dashboard' : '/login');
  useEarlyAction('begin', begin, 1);
  return (
    <main id={MAIN_ID} tabIndex={-1} className={styles.hero} style={{ minHeight: height }} data-path={path}>
      <LargeTitle as="h1" className={styles.title}>
        The Alchemy of Happiness
      </LargeTitle>
      <Subtitle1 as="p">Al-Ghazali · translated by Claud Field</Subtitle1>
      <Body1 as="p" className={styles.tagline}>
        Explore the timeless wisdom of Al-Ghazali through semantic search: ask in your own words and find the passages
        that answer, by meaning rather than by keyword.
      </Body1>
      {/* A real link (it works with no script at all); before the app loads, its tap is kept. */}
      <Button
        as="a"
        href={isAuthenticated ? '/dashboard' : '/login'}
        appearance="primary"
        size="large"
        data-early-action="begin"
        onClick={(event) => {
          event.preventDefault();
          begin();
        }}
      >
        Begin Your Journey
      </Button>
      {/* A way in: each question is asked on arrival at the dashboard, through sign-in when needed (real links). */}
      <nav className={styles.examples} aria-labelledby="examples-heading">
        <Body1 as="h2" id="examples-heading">
          Or start with a question the book answers:
        </Body1>
        <ul className={styles.exampleList}>
          {EXAMPLE_QUESTIONS.map((question) => (
            <li key={question}>
              <Link href={searchAddress(question)} className={styles.example}>
                {question}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </main>
  );
}
