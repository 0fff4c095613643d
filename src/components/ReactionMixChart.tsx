import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactionCounts } from '../api/stats-api.ts';

const useStyles = makeStyles({
  svg: { width: '100%', height: 'auto', maxWidth: '720px' },
  label: { fill: tokens.colorNeutralForeground1, fontSize: '12px' },
  good: { fill: tokens.colorPaletteGreenBackground3 },
  some: { fill: tokens.colorPaletteMarigoldBackground3 },
  bad: { fill: tokens.colorPaletteRedBackground3 },
});

/** Each model's reactions as one bar split 👍 / 🤷 / 👎 by share. */
export function ReactionMixChart({ rows, title }: { rows: Array<{ label: string; counts: ReactionCounts }>; title: string }) {
  const styles = useStyles();
  const rowHeight = 28;
  const left = 220;
  const width = 460;
  const parts = [
    ['👍', styles.good],
    ['🤷', styles.some],
    ['👎', styles.bad],
  ] as const;
  return (
    <svg className={styles.svg} viewBox={`0 0 ${left + width + 10} ${rows.length * rowHeight}`} role="img" aria-label={title}>
      {rows.map((row, i) => {
        let at = left;
        return (
          <g key={row.label}>
            <text className={styles.label} x={left - 8} y={i * rowHeight + 18} textAnchor="end">
              {row.label}
            </text>
            {parts.map(([reaction, className]) => {
              const share = row.counts.total ? row.counts[reaction] / row.counts.total : 0;
              const rect = <rect key={reaction} className={className} x={at} y={i * rowHeight + 6} width={share * width} height={16} />;
              at += share * width;
              return rect;
            })}
          </g>
        );
      })}
    </svg>
  );
}
