// Derived data that more than one facet reads (the robots.txt file every robots facet judges, the TLS probe's
// default handshake, the http probe's home page), made the first time a facet asks for it and shared by every
// facet that asks after, the way Lighthouse's computed artifacts are. Each is keyed by the object it is derived
// from, an object that lives as long as the data may be shared (a scan's ProbeContext or document fetcher, a
// parsed file, a trust store array), so nothing outlives it and nothing is made for a scan whose facets never ask.

/** `derive` made at most once per key; later calls with the same key get the first call's value (a promise too). */
export function computed<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (made.has(key)) return made.get(key)!;
    const value = derive(key);
    made.set(key, value);
    return value;
  };
}
