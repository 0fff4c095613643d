import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactionCounts } from '../stats-api.ts';

const useStyles = makeStyles({
  chart: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '720px', margin: 0 },
  // Each label on its own line above its bar: a long model name wraps instead of being cut, at any width or zoom.
  label: { overflowWrap: 'anywhere', fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 },
  bar: { display: 'flex', height: '16px', borderRadius: tokens.borderRadiusSmall, overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground3 },
  good: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  some: { backgroundColor: tokens.colorPaletteMarigoldBackground3 },
  bad: { backgroundColor: tokens.colorPaletteRedBackground3 },
});

/** Each model's reactions as one bar split 👍 / 🤷 / 👎 by share. The table beside it holds the figures. */
export function ReactionMixChart({ rows, title }: { rows: Array<{ label: string; counts: ReactionCounts }>; title: string }) {
  const styles = useStyles();
  const parts = [
    ['👍', styles.good],
    ['🤷', styles.some],
    ['👎', styles.bad],
  ] as const;
  return (
    <figure className={styles.chart} role="img" aria-label={title}>
      {rows.map((row) => (
        <div key={row.label}>
          <div className={styles.label} dir="auto">
            {row.label}
          </div>
          <div className={styles.bar}>
            {parts.map(([reaction, className]) => (
              <div key={reaction} className={className} style={{ width: `${row.counts.total ? (row.counts[reaction] / row.counts.total) * 100 : 0}%` }} />
            ))}
          </div>
        </div>
      ))}
    </figure>
  );
}
