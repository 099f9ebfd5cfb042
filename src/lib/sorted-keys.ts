// An object's keys in UTF-16 code-unit order, what `Object.keys(v).sort()` gives (RFC 8785's property order).

/** Past this many keys the general sort is used; below it an insertion sort, cheaper for the handful most have. */
const SMALL = 24;

export function sortedKeys(v: object): string[] {
  const keys = Object.keys(v);
  if (keys.length > SMALL) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}
