// Both probes that fetch documents describe them with the one fetcher's facts, so their schemas must define
// `document` and `published` identically (the engine resolves a `$ref` only within its own schema file).
import { describe, expect, it } from 'vitest';
import agents from '../../../schemas/observations/agents.json' with { type: 'json' };
import wellknown from '../../../schemas/observations/wellknown.json' with { type: 'json' };

describe('the document facts of the wellknown and agents schemas', () => {
  it('are one definition', () => {
    expect(agents.$defs.document).toEqual(wellknown.$defs.document);
    expect(agents.$defs.published).toEqual(wellknown.$defs.published);
  });
});
