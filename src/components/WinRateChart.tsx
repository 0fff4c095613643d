import { makeStyles, tokens } from '@fluentui/react-components';
import type { ComparisonRecord } from '../api/stats-api.ts';

export interface WinRateRow {
  label: string;
  record: ComparisonRecord;
}

const useStyles = makeStyles({
  svg: { width: '100%', height: 'auto', maxWidth: '720px', overflow: 'visible' },
  label: { fill: tokens.colorNeutralForeground1, fontSize: '12px' },
  axis: { stroke: tokens.colorNeutralStroke1 },
  bar: { fill: tokens.colorBrandBackground },
  whisker: { stroke: tokens.colorNeutralForeground1, strokeWidth: 2 },
  half: { stroke: tokens.colorNeutralForeground3, strokeDasharray: '4 3' },
});

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** Win rate per row as a bar, with its 95% interval as a whisker; 50% marked. */
export function WinRateChart({ rows, title }: { rows: WinRateRow[]; title: string }) {
  const styles = useStyles();
  const rowHeight = 28;
  const left = 220;
  const width = 460;
  const height = rows.length * rowHeight + 24;
  const x = (v: number) => left + v * width;
  return (
    <svg className={styles.svg} viewBox={`0 0 ${left + width + 40} ${height}`} role="img" aria-label={title}>
      <line className={styles.half} x1={x(0.5)} x2={x(0.5)} y1={0} y2={height - 20} />
      {rows.map((row, i) => {
        const y = i * rowHeight;
        const rate = row.record.winRate;
        return (
          <g key={row.label}>
            <text className={styles.label} x={left - 8} y={y + 18} textAnchor="end">
              {row.label}
            </text>
            {rate !== null && <rect className={styles.bar} x={left} y={y + 6} width={rate * width} height={16} rx={3} />}
            {row.record.interval && (
              <line className={styles.whisker} x1={x(row.record.interval.low)} x2={x(row.record.interval.high)} y1={y + 14} y2={y + 14} />
            )}
            <text className={styles.label} x={x(Math.max(rate ?? 0, row.record.interval?.high ?? 0)) + 6} y={y + 18}>
              {rate === null ? 'no decisive rounds' : percent(rate)}
            </text>
          </g>
        );
      })}
      <line className={styles.axis} x1={left} x2={left + width} y1={height - 20} y2={height - 20} />
      {[0, 0.25, 0.5, 0.75, 1].map((t) => (
        <text key={t} className={styles.label} x={x(t)} y={height - 4} textAnchor="middle">
          {percent(t)}
        </text>
      ))}
    </svg>
  );
}
