// A probe's facets, each collected only when a rule of the run reads it. The collectors are typed by the
// namespace's type generated from its schema, so a facet that emits the wrong shape fails the type check.

/** One collector per facet of the namespace `T`, each giving that facet's fact. */
export type FacetCollectors<T> = { [F in keyof T]-?: () => Promise<NonNullable<T[F]>> };

/**
 * Runs the collectors of the wanted facets at once, each through `run` (which may scope its work), and gives their
 * facts under their names, in the collectors' order.
 */
export async function collectFacets<T extends object>(
  collectors: FacetCollectors<T>,
  wanted: (facet: keyof T & string) => boolean,
  run: <V>(facet: keyof T & string, collect: () => Promise<V>) => Promise<V> = (_facet, collect) => collect(),
): Promise<Partial<T>> {
  const facets = (Object.keys(collectors) as (keyof T & string)[]).filter(wanted);
  const facts = await Promise.all(facets.map((facet) => run(facet, collectors[facet])));
  const out: Partial<T> = {};
  facets.forEach((facet, i) => {
    out[facet] = facts[i];
  });
  return out;
}
