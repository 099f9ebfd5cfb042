// The SPF parser, walk and permerror rules against pyspf's own ad hoc cases (github.com/sdgathman/pyspf, commit
// 1042e9e15dd2, test/test.yml; zone data, inputs and expected results transcribed into data/pyspf-test.json).
// Each case is compared on whether the domain's policy ends in permerror (see spf-suite.ts).
import { describe, expect, it } from 'vitest';
import { expectAgreement } from '../../suite-agreement.ts';
import { loadSuite, outcomes } from './spf-suite.ts';

describe("SPF against pyspf's own test cases", async () => {
  const results = await outcomes(loadSuite('pyspf-test.json'));

  it.each(results)('$id: $want', ({ agrees }) => expect(agrees).toBe(true));

  it('agrees on every case', () => {
    expectAgreement('pyspf', results, {});
  });
});
