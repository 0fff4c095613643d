import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { NavigationRegular } from '@fluentui/react-icons';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { DRAWER_WIDTH_PX, SMALL_SCREEN_QUERY } from '../../lib/constants.ts';
import { useHideOnScroll } from '../../lib/hooks/use-hide-on-scroll.ts';
import { useMediaQuery } from '../../lib/hooks/use-media-query.ts';
import { useEarlyAction } from '../../lib/early-input.ts';
import { useSession } from '../../features/session/index.ts';
import { InstallButton } from '../../features/pwa/components/InstallButton.tsx';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';

// The drawer is only ever opened on a small screen: its code loads when it is first opened.
const NavDrawer = lazy(() => import('./NavDrawer.tsx'));

const useStyles = makeStyles({
  bar: {
    position: 'sticky',
    top: 0,
    zIndex: 10,
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    transition: 'transform 200ms ease',
    // A reader who asked for less motion gets the bar in place, not sliding.
    '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
  },
  hidden: { transform: 'translateY(-100%)' },
  brand: {
    fontFamily: 'Georgia, "Times New Roman", serif',
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorBrandForeground1,
    textDecoration: 'none',
    marginRight: 'auto',
  },
  links: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  link: {
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  // Both layouts are in the markup and CSS picks one, so pre-rendered HTML is right at any width.
  wideOnly: { [`@media ${SMALL_SCREEN_QUERY}`]: { display: 'none' } },
  smallOnly: { display: 'none', [`@media ${SMALL_SCREEN_QUERY}`]: { display: 'inline-flex' } },
  drawer: { width: `${DRAWER_WIDTH_PX}px` },
  drawerLinks: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

function navItems(isAuthenticated: boolean): Array<{ href: string; label: string }> {
  return [
    // The book itself, open to everyone: its contents (/read), from which each part is read.
    { href: '/read', label: 'Read' },
    { href: '/about', label: 'About' },
    { href: '/saved', label: 'Saved' },
    ...(isAuthenticated
      ? [
          { href: '/dashboard', label: 'Dashboard' },
          { href: '/insights', label: 'Insights' },
          { href: '/logout', label: 'Logout' },
        ]
      : [{ href: '/login', label: 'Login' }]),
  ];
}

export function NavBar() {
  const styles = useStyles();
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const [location] = useLocation();
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  const hidden = useHideOnScroll();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so that closing it goes through Fluent's own close: one
  // unmounted while open left the page hidden from screen readers (aria-hidden on #root).
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);
  const items = navItems(isAuthenticated);
  // Closing the drawer (its close button, Escape, a click outside) gives the focus back to the
  // button that opened it; following one of its links leaves it to the new page's heading.
  const menuButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const closeDrawer = () => {
    returnFocus.current = true;
    setOpen(false);
  };
  useEffect(() => {
    if (open || !returnFocus.current) return;
    returnFocus.current = false;
    menuButton.current?.focus();
  }, [open]);
  useEarlyAction('open-navigation', () => setOpen(true));
  // The link of the page shown, or of the section it is in (Read, on a chapter at /read/ch4).
  const current = (href: string) => (location === href ? 'page' : location.startsWith(`${href}/`) ? 'true' : undefined);
  const links = (onNavigate?: () => void) =>
    items.map((item) => (
      <Link
        key={item.href}
        href={item.href}
        className={mergeClasses(styles.link, current(item.href) && styles.active)}
        aria-current={current(item.href)}
        onClick={onNavigate}
      >
        {item.label}
      </Link>
    ));

  return (
    <header className={mergeClasses(styles.bar, hidden && !open && styles.hidden)} data-testid="navbar">
      <Link href="/" className={styles.brand}>
        The Alchemy of Happiness
      </Link>
      <nav aria-label="Main" className={mergeClasses(styles.links, styles.wideOnly)}>
        {links()}
      </nav>
      <InstallButton className={styles.wideOnly} />
      <ThemeToggle />
      <Button
        appearance="subtle"
        icon={<NavigationRegular />}
        aria-label="Open navigation"
        ref={menuButton}
        data-early-action="open-navigation"
        className={styles.smallOnly}
        onClick={() => setOpen(true)}
      />
      {/* Loaded and mounted at its first opening (small screens only); closed by Fluent itself after that. */}
      {opened && small && (
        <Suspense fallback={null}>
          <NavDrawer open={open} onClose={closeDrawer} className={styles.drawer}>
            <nav aria-label="Main" className={styles.drawerLinks}>
              {links(() => setOpen(false))}
            </nav>
            <InstallButton />
          </NavDrawer>
        </Suspense>
      )}
    </header>
  );
}
