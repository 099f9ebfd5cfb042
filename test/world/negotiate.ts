// Proactive content negotiation on the Accept header (RFC 9110 section 12.5.1) for routes with variants.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const item of accept.split(',')) {
    const [range, ...params] = item.split(';').map((p) => p.trim().toLowerCase());
    const [type, subtype] = (range ?? '').split('/');
    if (!type || !subtype) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    ranges.push({ type, subtype, q: Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0 });
  }
  return ranges;
}

/** The quality the Accept ranges give a media type: that of the most specific matching range, 0 if none. */
function qualityOf(mediaType: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.toLowerCase().split('/');
  let best = { specificity: -1, q: 0 };
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity > best.specificity) best = { specificity, q: r.q };
  }
  return best.q;
}

/**
 * The index in `offered` (media types, the default representation first) that the Accept header prefers: the
 * highest quality, ties going to the earlier entry. No Accept, or nothing acceptable, gets the default (0), as
 * servers commonly do rather than answering 406.
 */
export function preferredIndex(accept: string | undefined, offered: readonly string[]): number {
  if (accept === undefined || accept.trim() === '') return 0;
  const ranges = parseAccept(accept);
  let chosen = 0;
  let chosenQ = qualityOf(offered[0]!, ranges);
  offered.forEach((mediaType, i) => {
    const q = qualityOf(mediaType, ranges);
    if (q > chosenQ) [chosen, chosenQ] = [i, q];
  });
  return chosen;
}
