import { makeStyles, Spinner } from '@fluentui/react-components';

// As tall as the screen: while a route loads, the footer stays below the fold and nothing jumps.
const useStyles = makeStyles({ wrap: { minHeight: '100vh', display: 'grid', placeItems: 'center' } });

export function CenteredSpinner({ label }: { label: string }) {
  const styles = useStyles();
  return (
    <main className={styles.wrap}>
      <Spinner label={label} labelPosition="below" />
    </main>
  );
}
