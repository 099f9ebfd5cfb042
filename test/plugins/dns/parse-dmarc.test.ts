import { describe, it, expect } from 'vitest';
import { DMARC_VERSION, mailtoDomain, parseDmarc } from '../../../plugins/dns/parse-dmarc.ts';

describe('parseDmarc', () => {
  it('reads the policy tags', () => {
    const d = parseDmarc(
      'v=DMARC1; p=Reject; sp=quarantine; pct=50; rua=mailto:a@example.org,mailto:b@rep.example!10m; adkim=s; aspf=r',
    );
    expect(d).toMatchObject({ p: 'reject', sp: 'quarantine', np: null, pct: 50, adkim: 's', aspf: 'r', errors: [] });
    expect(d.rua).toEqual(['mailto:a@example.org', 'mailto:b@rep.example!10m']);
  });

  it('reports a missing or invalid policy, a bad pct and bad alignment', () => {
    expect(parseDmarc('v=DMARC1; rua=mailto:a@example.org').errors).toEqual(['p is missing']);
    expect(parseDmarc('v=DMARC1; p=block; pct=150; adkim=x').errors).toEqual([
      'p=block is not none, quarantine or reject',
      'pct=150 is not an integer from 0 to 100',
      'adkim=x is not r or s',
    ]);
  });

  it('requires v=DMARC1 first and refuses repeated tags', () => {
    expect(parseDmarc('p=none; v=DMARC1').errors).toContain('the record must start with v=DMARC1');
    expect(parseDmarc('v=DMARC1; p=none; p=reject').errors).toEqual(['tag "p" appears more than once']);
  });

  it('lists tags it does not know', () => {
    expect(parseDmarc('v=DMARC1; p=none; foo=bar').unknown_tags).toEqual(['foo']);
  });

  it('selects records and extracts report domains', () => {
    expect(DMARC_VERSION.test('v=DMARC1; p=none')).toBe(true);
    expect(DMARC_VERSION.test('v = DMARC1 ;p=none')).toBe(true);
    expect(DMARC_VERSION.test('v=DMARC10; p=none')).toBe(false);
    expect(mailtoDomain('mailto:dmarc@Reports.Example.NET!10m')).toBe('reports.example.net');
    expect(mailtoDomain('https://example.org/r')).toBeNull();
  });
});
