// "Every item satisfies this" as an assertion that can fail usefully: an empty list fails (a vacuous `every` would
// pass), and a failure names the items that did not satisfy the predicate instead of printing `false`.
import { expect } from 'vitest';

export function expectEvery<T>(items: readonly T[], predicate: (item: T) => boolean, what: string): void {
  expect(items.length, `${what}: no items to check`).toBeGreaterThan(0);
  expect(
    items.filter((item) => !predicate(item)),
    what,
  ).toEqual([]);
}
