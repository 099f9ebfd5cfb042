// The redirect target a response names. Location is one URI-reference (RFC 9110 section 10.2.2), not a list, so its
// field lines are read apart: repeated identical lines name that target, differing ones name none (browsers refuse
// such a response rather than pick one), and joining them with ", " would make a URL nobody sent.

/** The Location of a response from its field lines (any casing of the name), or null when it names no one target. */
export function locationOf(lines: string | readonly string[] | undefined): string | null {
  const distinct = new Set(typeof lines === 'string' ? [lines] : (lines ?? []));
  return distinct.size === 1 ? [...distinct][0]! : null;
}
