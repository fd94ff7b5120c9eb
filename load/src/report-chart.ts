/**
 * The load report's SVG line charts (report-html.ts draws a run's with them): axes, grid, guide
 * lines, a legend, and a hover title per interval; their CSS beside the frame's.
 */
import { escapeHtml as esc } from '@investor-graph/cli/html-page';

const palette = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];

export interface Series {
  name: string;
  values: (number | null)[];
  color?: string;
  dash?: boolean;
}

/** A line chart: one x per interval of the run, y from 0; guide lines (a plan's rate) drawn dashed. */
/** A guide that would flatten the data (a latency bound far above every latency) is named, not drawn. */
export function chart(
  title: string,
  unit: string,
  xs: number[],
  interval: number,
  series: Series[],
  guides: { value: number; label: string; scale?: boolean }[] = [],
): string {
  const W = 920;
  const H = 250;
  const m = { l: 56, r: 16, t: 28, b: 30 };
  const w = W - m.l - m.r;
  const h = H - m.t - m.b;
  const dataTop = Math.max(1e-9, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const top =
    Math.max(dataTop, ...guides.filter((g) => g.scale !== false || g.value <= dataTop * 3).map((g) => g.value)) * 1.12;
  const step = niceStep(top / 5);
  const yMax = Math.ceil(top / step) * step;
  const span = Math.max(1, (xs.at(-1) ?? 0) + interval);
  const x = (t: number) => m.l + ((t + interval / 2) / span) * w;
  const y = (v: number) => m.t + h - (v / yMax) * h;
  const parts: string[] = [
    `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(title)}" ` +
      `xmlns="http://www.w3.org/2000/svg">`,
    `<text x="${m.l}" y="16" class="t">${esc(title)}</text>`,
  ];
  for (let v = 0; v <= yMax + 1e-9; v += step) {
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" ` +
        `class="grid"/><text x="${m.l - 6}" y="${(y(v) + 4).toFixed(1)}" class="ya">${esc(short(v))}</text>`,
    );
  }
  const tickEvery = niceStep(span / 8, [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]);
  for (let t = 0; t <= span; t += tickEvery)
    parts.push(`<text x="${(m.l + (t / span) * w).toFixed(1)}" y="${H - 10}" class="xa">${esc(clock(t))}</text>`);
  parts.push(`<text x="${W - m.r}" y="16" class="ya">${esc(unit)}</text>`);
  const above = guides.filter((g) => g.value > yMax);
  if (above.length)
    parts.push(
      `<text x="${W - m.r - 70}" y="16" ` +
        `class="ya">${esc(above.map((g) => `${g.label} (above the chart)`).join('; '))}</text>`,
    );
  for (const g of guides.filter((g) => g.value <= yMax))
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y(g.value).toFixed(1)}" y2="${y(g.value).toFixed(1)}" ` +
        `class="guide"/><text x="${W - m.r - 4}" y="${(y(g.value) - 4).toFixed(1)}" ` +
        `class="gl">${esc(g.label)}</text>`,
    );
  series.forEach((s, i) => {
    const color = s.color ?? palette[i % palette.length]!;
    const runs: string[] = [];
    let path = '';
    s.values.forEach((v, j) => {
      if (v === null) {
        if (path) runs.push(path);
        path = '';
        return;
      }
      path += `${path ? 'L' : 'M'}${x(xs[j]!).toFixed(1)},${y(v).toFixed(1)}`;
    });
    if (path) runs.push(path);
    for (const d of runs)
      parts.push(
        `<path d="${d}" fill="none" stroke="${color}" stroke-width="1.8"${s.dash ? ' stroke-dasharray="5 3"' : ''}/>`,
      );
    if (s.values.filter((v) => v !== null).length === 1) {
      const j = s.values.findIndex((v) => v !== null);
      parts.push(`<circle cx="${x(xs[j]!).toFixed(1)}" cy="${y(s.values[j]!).toFixed(1)}" r="3" fill="${color}"/>`);
    }
    parts.push(
      `<rect x="${m.l + 8 + i * 150}" y="${m.t + 4}" width="10" height="10" fill="${color}"/><text ` +
        `x="${m.l + 22 + i * 150}" y="${m.t + 13}" class="lg">${esc(s.name)}</text>`,
    );
  });
  // A hover strip per interval: the browser shows its <title> with every series' figure there.
  xs.forEach((t, j) => {
    const lines = [
      `${clock(t)} to ${clock(t + interval)}`,
      ...series.map((s) => `${s.name}: ${s.values[j] === null ? '—' : short(s.values[j]!)}${unit ? ` ${unit}` : ''}`),
    ];
    parts.push(
      `<rect x="${(m.l + (t / span) * w).toFixed(1)}" y="${m.t}" ` +
        `width="${((interval / span) * w).toFixed(1)}" height="${h}" ` +
        `class="hover"><title>${esc(lines.join('\n'))}</title></rect>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

function niceStep(raw: number, steps?: number[]): number {
  if (steps) return steps.find((s) => s >= raw) ?? steps.at(-1)!;
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  return ([1, 2, 2.5, 5, 10].find((k) => k * p >= raw) ?? 10) * p;
}
export const short = (v: number) =>
  Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(Math.abs(v) >= 10 ? 1 : 2);
const clock = (t: number) => (t < 60 ? `${t}s` : `${Math.floor(t / 60)}m${t % 60 ? `${t % 60}s` : ''}`);

/** The charts' rules, and a threshold's outcome coloured, beside the frame's. */
export const chartCss = `
tr.fail td:first-child{color:#b91c1c;font-weight:600}tr.ok td:first-child{color:#15803d}
svg{display:block;margin:10px 0 2px;background:#fafafa;border:1px solid #e5e7eb}
svg text{font:11px system-ui,sans-serif;fill:#374151}svg .t{font-weight:600;font-size:13px}
svg .ya{text-anchor:end}svg .xa{text-anchor:middle}svg .gl{text-anchor:end;fill:#6b7280}
svg .grid{stroke:#e5e7eb}svg .guide{stroke:#6b7280;stroke-dasharray:6 4}svg .hover{fill:transparent}\
svg .hover:hover{fill:rgba(37,99,235,.07)}
`;
