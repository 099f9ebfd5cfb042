// The llms.txt parser against the reference implementation's tests (github.com/AnswerDotAI/llms-txt, commit
// b39ea2130418, tests/test-parse.py, which tests llms_txt.miniparse.parse_llms_txt): each file and what the test
// reads back, transcribed below. Compared: the title, the blockquote summary, the H2 sections and the number of
// links in each. The `info` assertions (the prose between the summary and the first section) are left out: the
// probe records no prose, only its structure.
import { describe, expect, it } from 'vitest';
import { parseLlmsTxt, type ParsedLlmsTxt } from '../../../../plugins/wellknown/parse-llms-txt.ts';
import { expectAgreement } from '../../suite-agreement.ts';

const BASIC = `# Title

> Optional description goes here

Optional details go here

## Section name

- [Link title](https://link_url): Optional link details

## Optional

- [Link title](https://link_url)
`;
const MULTIPLE = `# Another Title

> Another description

More details

## Links

- [Google](https://google.com): Search engine
- [OpenAI](https://openai.com)

## More Info

- [Python](https://python.org): Programming language
`;
const NO_SUMMARY = `# Only Title

Only details here

## Section

- [Item](https://example.com)
`;
const NO_LINKS = `# No Links Title

> No description

Some details without links
`;

const parse = (text: string) => parseLlmsTxt(new TextEncoder().encode(text));
const linksIn = (p: ParsedLlmsTxt, section: string) => p.links.filter((l) => l.section === section).length;
const sectionNames = (p: ParsedLlmsTxt) => p.sections.map((s) => s.title);

/** [test and assertion, file, whether our parse gives the test's answer]. */
const CASES: [string, string, (p: ParsedLlmsTxt) => boolean][] = [
  ['basic_parsing: title', BASIC, (p) => p.title === 'Title'],
  ['basic_parsing: summary', BASIC, (p) => p.summary === 'Optional description goes here'],
  ['basic_parsing: section "Section name"', BASIC, (p) => sectionNames(p).includes('Section name')],
  ['basic_parsing: section "Optional"', BASIC, (p) => sectionNames(p).includes('Optional')],
  ['basic_parsing: one link in "Section name"', BASIC, (p) => linksIn(p, 'Section name') === 1],
  ['basic_parsing: one link in "Optional"', BASIC, (p) => linksIn(p, 'Optional') === 1],
  ['multiple_links: title', MULTIPLE, (p) => p.title === 'Another Title'],
  ['multiple_links: summary', MULTIPLE, (p) => p.summary === 'Another description'],
  ['multiple_links: two links in "Links"', MULTIPLE, (p) => linksIn(p, 'Links') === 2],
  ['multiple_links: one link in "More Info"', MULTIPLE, (p) => linksIn(p, 'More Info') === 1],
  ['missing_optional_fields: title', NO_SUMMARY, (p) => p.title === 'Only Title'],
  ['missing_optional_fields: no summary', NO_SUMMARY, (p) => p.summary === null],
  ['missing_optional_fields: section "Section"', NO_SUMMARY, (p) => sectionNames(p).includes('Section')],
  ['missing_optional_fields: one link in "Section"', NO_SUMMARY, (p) => linksIn(p, 'Section') === 1],
  ['no_links: title', NO_LINKS, (p) => p.title === 'No Links Title'],
  ['no_links: summary', NO_LINKS, (p) => p.summary === 'No description'],
  ['no_links: no sections', NO_LINKS, (p) => p.sections.length === 0],
];

const outcomes = CASES.map(([id, text, agrees]) => ({ id, agrees: agrees(parse(text)) }));

describe('llms.txt against the reference implementation (AnswerDotAI/llms-txt tests/test-parse.py)', () => {
  it.each(outcomes)('$id', ({ agrees }) => expect(agrees).toBe(true));

  it('agrees on at least 97 % of the cases', () => {
    expectAgreement('llms-txt reference tests', outcomes, {});
  });
});
