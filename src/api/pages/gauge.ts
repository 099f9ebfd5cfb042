// A score gauge as Lighthouse draws its category gauges: a ring filled in proportion to the score, the number in
// the middle, coloured by band (under 50, 50 to 89, 90 and more). SVG markup only: the pages run no script and
// their policy allows no style attribute, so the ring's length is a presentation attribute and colours are classes.
import { escapeHtml } from '../../lib/html.ts';

const RADIUS = 42;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The band a score falls in; `none` for a category none of whose required or recommended checks applied. */
export function band(score: number | null): 'poor' | 'fair' | 'good' | 'none' {
  if (score === null) return 'none';
  return score < 50 ? 'poor' : score < 90 ? 'fair' : 'good';
}

/** `label` is the gauge's accessible name; `extra` an additional class (size). */
export function gauge(score: number | null, label: string, extra = ''): string {
  const filled = score === null ? 0 : Math.round((score / 100) * CIRCUMFERENCE * 10) / 10;
  const shown = score === null ? '–' : String(score);
  const cls = ['gauge', `gauge-${band(score)}`, extra].filter(Boolean).join(' ');
  return `<svg class="${cls}" viewBox="0 0 100 100" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg"><circle class="gauge-track" cx="50" cy="50" r="${RADIUS}"/><circle class="gauge-arc" cx="50" cy="50" r="${RADIUS}" stroke-dasharray="${filled} ${Math.ceil(CIRCUMFERENCE)}" transform="rotate(-90 50 50)"/><text class="gauge-value" x="50" y="50" text-anchor="middle" dominant-baseline="central">${shown}</text></svg>`;
}
