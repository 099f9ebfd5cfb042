// The figure a bench prints from repeated measurements: a shared machine's noise moves single runs by 20 % and
// more, and a burst of other work should decide at most the runs it falls in.

/** The median of the numbers (the upper middle one of an even count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
