import { makeStyles, tokens } from '@fluentui/react-components';
import type { ComparisonRecord } from '../stats-api.ts';

export interface WinRateRow {
  label: string;
  record: ComparisonRecord;
}

const useStyles = makeStyles({
  chart: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '720px', margin: 0 },
  // Each label on its own line above its bar: a long model name wraps instead of being cut, at any width or zoom.
  label: { overflowWrap: 'anywhere', fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  track: { position: 'relative', flexGrow: 1, height: '16px', borderBottom: `1px solid ${tokens.colorNeutralStroke1}` },
  // The brand's foreground colour: 3:1 or more against the page in both themes (its background colour is not, in the dark one).
  bar: { position: 'absolute', left: 0, top: 0, bottom: 0, borderRadius: tokens.borderRadiusSmall, backgroundColor: tokens.colorBrandForeground1 },
  whisker: { position: 'absolute', top: '7px', height: '2px', backgroundColor: tokens.colorNeutralForeground1 },
  half: { position: 'absolute', left: '50%', top: '-4px', bottom: '-4px', borderLeft: `1px dashed ${tokens.colorNeutralForeground3}` },
  value: { minWidth: '7em', fontSize: tokens.fontSizeBase200, fontVariantNumeric: 'tabular-nums' },
  axis: { position: 'relative', height: '1.2em', marginRight: 'calc(7em + 8px)', fontSize: tokens.fontSizeBase100 },
  tick: { position: 'absolute', transform: 'translateX(-50%)', color: tokens.colorNeutralForeground2 },
});

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
const at = (x: number) => `${Math.max(0, Math.min(1, x)) * 100}%`;

/** Win rate per row as a bar, with its 95% interval as a whisker; 50% marked. The table beside it holds the figures. */
export function WinRateChart({ rows, title }: { rows: WinRateRow[]; title: string }) {
  const styles = useStyles();
  return (
    <figure className={styles.chart} role="img" aria-label={title}>
      {rows.map((row) => {
        const rate = row.record.winRate;
        const interval = row.record.interval;
        return (
          <div key={row.label}>
            <div className={styles.label} dir="auto">
              {row.label}
            </div>
            <div className={styles.row}>
              <div className={styles.track}>
                {rate !== null && <div className={styles.bar} style={{ width: at(rate) }} />}
                <div className={styles.half} />
                {interval && <div className={styles.whisker} style={{ left: at(interval.low), width: at(interval.high - interval.low) }} />}
              </div>
              <span className={styles.value}>{rate === null ? 'no decisive rounds' : percent(rate)}</span>
            </div>
          </div>
        );
      })}
      <div className={styles.axis} aria-hidden="true">
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <span key={t} className={styles.tick} style={{ left: at(t) }}>
            {Math.round(t * 100)}%
          </span>
        ))}
      </div>
    </figure>
  );
}
