import { describe, it, expect } from 'vitest';
import { distinctNetworks, networkOf } from '../../../plugins/dns/networks.ts';
import { cnameChain } from '../../../plugins/dns/collect-addresses.ts';
import { caaClimb } from '../../../plugins/dns/collect-caa.ts';

describe('networks', () => {
  it('maps IPv4 to its /24 and IPv6 to its /48', () => {
    expect(networkOf('192.0.2.77')).toBe('192.0.2.0/24');
    expect(networkOf('2001:db8:1:2::53')).toBe('2001:db8:1::/48');
    expect(networkOf('nope')).toBeNull();
  });
  it('counts distinct networks', () => {
    expect(distinctNetworks(['192.0.2.1', '192.0.2.2', '198.51.100.1', '2001:db8::1'])).toEqual([
      '192.0.2.0/24',
      '198.51.100.0/24',
      '2001:db8::/48',
    ]);
  });
});

describe('name helpers', () => {
  it('follows a CNAME chain in answer order and stops at a loop', () => {
    const rr = (name: string, data: string) => ({ name, type: 'CNAME', ttl: 60, data });
    expect(
      cnameChain('a.test', [
        rr('a.test', 'b.test'),
        rr('b.test', 'c.test'),
        { name: 'c.test', type: 'A', ttl: 60, data: '192.0.2.1' },
      ]),
    ).toEqual(['b.test', 'c.test']);
    expect(cnameChain('a.test', [rr('a.test', 'b.test'), rr('b.test', 'a.test')])).toEqual(['b.test', 'a.test']);
    expect(cnameChain('a.test', [])).toEqual([]);
  });
  it('climbs for CAA from the name to its registrable domain', () => {
    expect(caaClimb('a.b.example.co.uk')).toEqual(['a.b.example.co.uk', 'b.example.co.uk', 'example.co.uk']);
    expect(caaClimb('example.org')).toEqual(['example.org']);
  });
});
