// The badge for READMEs and site footers: a small SVG naming the verdict of the domain's current certificate and
// its agent-readiness level (from the certificate's own results), or "not validated". Text is measured with a fixed average advance (the badge fonts are close to it), white on
// colours dark enough for WCAG AA contrast.
import { escapeHtml } from '../../lib/html.ts';
import type { Verdict } from '../../lib/judgement.ts';

const LABEL = 'agent readiness';
const LABEL_COLOUR = '#3b3b3b';
const MESSAGES: Record<Verdict | 'none', { text: string; colour: string }> = {
  CERTIFIED: { text: 'certified', colour: '#1a7f37' },
  NOT_CONFORMANT: { text: 'not conformant', colour: '#b3261e' },
  INCOMPLETE: { text: 'incomplete', colour: '#8a5300' },
  none: { text: 'not validated', colour: '#5f6368' },
};
const CHAR_WIDTH = 6.6;
const PADDING = 8;

const widthOf = (text: string) => Math.round(text.length * CHAR_WIDTH + 2 * PADDING);

/** The badge for a verdict and level, or for no valid certificate (`null`). */
export function badgeSvg(verdict: Verdict | null, level?: number): string {
  const message = { ...MESSAGES[verdict ?? 'none'] };
  if (verdict !== null && level !== undefined) message.text += ` · level ${level}`;
  const left = widthOf(LABEL);
  const right = widthOf(message.text);
  const width = left + right;
  const name = `${LABEL}: ${message.text}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${escapeHtml(name)}">
<title>${escapeHtml(name)}</title>
<rect width="${left}" height="20" fill="${LABEL_COLOUR}"/>
<rect x="${left}" width="${right}" height="20" fill="${message.colour}"/>
<g fill="#ffffff" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" font-size="11" text-anchor="middle">
<text x="${left / 2}" y="14">${escapeHtml(LABEL)}</text>
<text x="${left + right / 2}" y="14">${escapeHtml(message.text)}</text>
</g>
</svg>
`;
}
