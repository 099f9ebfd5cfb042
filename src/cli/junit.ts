// JUnit XML for CI systems: one test case per rule. A failing rule is a <failure>, a rule that could not be
// judged an <error>, a rule that does not apply <skipped>, with what the rule read as the element's text. The
// shape is the one Jenkins, GitLab and GitHub's JUnit reporters read (testsuites > testsuite > testcase).
import { XMLBuilder } from 'fast-xml-parser';
import type { Judgement, JudgedRule } from '../lib/report-diff.ts';

/** Rules that passed in a baseline and fail now: their failure says so. */
export interface JunitOptions {
  regressed?: ReadonlySet<string>;
}

// XML 1.0 allows neither most control characters nor U+FFFE/U+FFFF, even escaped; a site's text can hold them.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xmlText = (s: string): string => s.replace(NOT_XML_CHAR, '\uFFFD');

function observedText(rule: JudgedRule & { reason?: string }): string {
  const lines = Object.entries(rule.observed ?? {}).map(([path, value]) => `${path} = ${JSON.stringify(value)}`);
  if (rule.reason) lines.unshift(rule.reason);
  return xmlText(lines.join('\n'));
}

function testcase(j: Judgement, rule: JudgedRule & { reason?: string }, opts: JunitOptions): Record<string, unknown> {
  const base = { '@_name': rule.id, '@_classname': `dvs.${j.domain}`, '@_time': '0' };
  switch (rule.outcome) {
    case 'fail': {
      const regressed = opts.regressed?.has(rule.id) ? '; it passed in the baseline' : '';
      const message = `${rule.level} rule failed${regressed}`;
      return { ...base, failure: { '@_message': message, '@_type': 'fail', '#text': observedText(rule) } };
    }
    case 'error':
      return {
        ...base,
        error: { '@_message': 'the rule could not be judged', '@_type': 'error', '#text': observedText(rule) },
      };
    case 'not_applicable':
      return { ...base, skipped: { '@_message': 'not applicable' } };
    case 'pass':
      return base;
  }
}

export function junitXml(j: Judgement, opts: JunitOptions = {}): string {
  const count = (o: JudgedRule['outcome']) => j.results.filter((r) => r.outcome === o).length;
  const totals = {
    '@_tests': String(j.results.length),
    '@_failures': String(count('fail')),
    '@_errors': String(count('error')),
    '@_skipped': String(count('not_applicable')),
    '@_time': '0',
  };
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': 'dvs',
      ...totals,
      testsuite: {
        '@_name': j.domain,
        ...totals,
        // The Ant schema CI systems follow takes a local date-time without zone or fraction; observed_at is UTC.
        '@_timestamp': j.observed_at.slice(0, 19),
        properties: {
          property: [
            { '@_name': 'verdict', '@_value': j.verdict },
            { '@_name': 'score', '@_value': String(j.score) },
            { '@_name': 'ruleset', '@_value': j.ruleset.version },
          ],
        },
        testcase: j.results.map((r) => testcase(j, r, opts)),
      },
    },
  };
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: true,
    suppressEmptyNode: true,
  });
  return builder.build(doc);
}
