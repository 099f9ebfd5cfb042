// A ruleset that does not load, with every problem by file. Its own module so the command line can tell this
// error apart without importing the engine.
export interface RulesetProblem {
  file: string;
  message: string;
}

export class RulesetError extends Error {
  override name = 'RulesetError';
  constructor(readonly problems: RulesetProblem[]) {
    super(
      `the ruleset has ${problems.length} problem(s):\n` + problems.map((p) => `  ${p.file}: ${p.message}`).join('\n'),
    );
  }
}
