import type { Bar } from './metricsStore';

const ROW = 24;
const LABEL = 190;
const TRACK = 260;
const TEXT = 130;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Horizontal bars in plain SVG: a label, a bar whose length is `value / max`, and its text. */
export function BarChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const width = LABEL + TRACK + TEXT;
  const height = Math.max(bars.length, 1) * ROW;
  return (
    <svg className="bar-chart" role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      {bars.map((b, i) => (
        <g key={b.label} transform={`translate(0 ${i * ROW})`} data-bar={b.label}>
          <title>{`${b.label}: ${b.text}`}</title>
          <text x={LABEL - 8} y={ROW / 2} textAnchor="end" dominantBaseline="middle">
            {clip(b.label, 28)}
          </text>
          <rect className="bar-track" x={LABEL} y={5} width={TRACK} height={ROW - 10} rx={3} />
          <rect className="bar-fill" x={LABEL} y={5} width={b.max > 0 ? (TRACK * b.value) / b.max : 0} height={ROW - 10} rx={3} />
          <text className="bar-text" x={LABEL + TRACK + 8} y={ROW / 2} dominantBaseline="middle">
            {b.text}
          </text>
        </g>
      ))}
    </svg>
  );
}
