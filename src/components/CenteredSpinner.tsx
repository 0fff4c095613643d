import { makeStyles, Spinner } from '@fluentui/react-components';

const useStyles = makeStyles({ wrap: { minHeight: '60vh', display: 'grid', placeItems: 'center' } });

export function CenteredSpinner({ label }: { label: string }) {
  const styles = useStyles();
  return (
    <main className={styles.wrap}>
      <Spinner label={label} labelPosition="below" />
    </main>
  );
}
