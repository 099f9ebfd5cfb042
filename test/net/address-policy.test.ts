import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { classifyHost, createAddressPolicy, rawUrlHost } from '../../src/net/address-policy.ts';

const strict = createAddressPolicy([]);

const REFUSED_V4_RANGES: Array<[number[], number]> = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 2, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

/** A random address inside one of the refused v4 ranges, as four octets. */
const refusedV4 = fc
  .tuple(fc.constantFrom(...REFUSED_V4_RANGES), fc.integer({ min: 0, max: 0xffffffff }))
  .map(([[base, bits], noise]) => {
    const baseInt = base.reduce((acc, o) => acc * 256 + o, 0);
    const hostMask = bits === 0 ? 0xffffffff : 2 ** (32 - bits) - 1;
    const n = baseInt + (noise % (hostMask + 1));
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  });

const hex = (n: number, upper: boolean): string => (upper ? n.toString(16).toUpperCase() : n.toString(16));

/** The ways one v4 address can be written as a v6 address that embeds it. */
const embeddings = (o: number[], upper: boolean): string[] => {
  const hi = (o[0]! << 8) | o[1]!;
  const lo = (o[2]! << 8) | o[3]!;
  const dotted = o.join('.');
  return [
    `::ffff:${dotted}`,
    `::FFFF:${dotted}`,
    `::ffff:${hex(hi, upper)}:${hex(lo, upper)}`,
    `0:0:0:0:0:ffff:${hex(hi, upper)}:${hex(lo, upper)}`,
    `0000:0000:0000:0000:0000:FFFF:${dotted}`,
    `::${dotted}`,
    `64:ff9b::${dotted}`,
    `64:ff9b:1::${hex(hi, upper)}:${hex(lo, upper)}`,
  ];
};

const publicV4 = fc
  .tuple(
    fc.integer({ min: 1, max: 223 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 1, max: 254 }),
  )
  .filter(
    ([a, b, c]) =>
      ![0, 10, 127].includes(a) &&
      !(a === 100 && b >= 64 && b < 128) &&
      !(a === 169 && b === 254) &&
      !(a === 172 && b >= 16 && b < 32) &&
      !(a === 192 && (b === 168 || (b === 0 && (c === 0 || c === 2)) || (b === 88 && c === 99))) &&
      !(a === 198 && (b === 18 || b === 19 || (b === 51 && c === 100))) &&
      !(a === 203 && b === 0 && c === 113),
  )
  .map((o) => o.join('.'));

/** Global unicast v6 outside the special-purpose blocks inside 2000::/3. */
const publicV6 = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((parts) => {
  parts[0] = 0x2400 + (parts[0]! % 0x1b00); // 2400:: .. 3eff::, clear of 2001::/23, 2002::/16 and 3fff::/20
  return new ipaddr.IPv6(parts).toString();
});

describe('address policy', () => {
  it('refuses the special-purpose addresses the design names', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '0.0.0.0',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '240.0.0.1',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '2001:db8::1',
      '64:ff9b::a00:1',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2001::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(strict.check(address), address).toMatchObject({ allowed: false });
    }
  });

  it('names the reason, metadata included', () => {
    expect(strict.check('169.254.169.254')).toEqual({ allowed: false, address: '169.254.169.254', reason: 'metadata' });
    expect(strict.check('::ffff:10.0.0.1')).toEqual({
      allowed: false,
      address: '10.0.0.1',
      reason: 'ipv4-mapped private',
    });
  });

  it('refuses every spelling of a refused v4 address, mapped and embedded forms included', () => {
    fc.assert(
      fc.property(refusedV4, fc.boolean(), (octets, upper) => {
        for (const spelling of [octets.join('.'), ...embeddings(octets, upper)]) {
          expect(strict.check(spelling), spelling).toMatchObject({ allowed: false });
        }
      }),
    );
  });

  it('allows public addresses, and connects mapped ones as v4', () => {
    fc.assert(
      fc.property(publicV4, publicV6, (v4, v6) => {
        expect(strict.check(v4)).toEqual({ allowed: true, address: v4, family: 4 });
        expect(strict.check(`::ffff:${v4}`)).toEqual({ allowed: true, address: v4, family: 4 });
        expect(strict.check(v6)).toMatchObject({ allowed: true, family: 6 });
      }),
    );
  });

  it('allowNetworks widens exactly its ranges', () => {
    fc.assert(
      fc.property(refusedV4, fc.integer({ min: 8, max: 32 }), refusedV4, (inside, bits, other) => {
        const network = ipaddr.IPv4.networkAddressFromCIDR(`${inside.join('.')}/${bits}`).toString();
        const policy = createAddressPolicy([`${network}/${bits}`]);
        expect(policy.check(inside.join('.'))).toMatchObject({ allowed: true });
        expect(policy.check(`::ffff:${inside.join('.')}`)).toMatchObject({ allowed: true });
        const otherAddr = ipaddr.IPv4.parse(other.join('.'));
        const covered = otherAddr.match(ipaddr.IPv4.parse(network), bits);
        expect(policy.check(other.join('.')).allowed).toBe(covered);
      }),
    );
    const loopback6 = createAddressPolicy(['::1/128']);
    expect(loopback6.check('::1')).toMatchObject({ allowed: true });
    expect(loopback6.check('127.0.0.1')).toMatchObject({ allowed: false });
  });

  it('refuses what is not an address', () => {
    expect(strict.check('example.com')).toMatchObject({ allowed: false, reason: 'not an IP address' });
    expect(strict.check('fe80::1%eth0')).toMatchObject({ allowed: false });
  });
});

describe('host classification', () => {
  it('accepts canonical literals and names', () => {
    expect(classifyHost('93.184.216.34')).toEqual({ kind: 'ip', host: '93.184.216.34' });
    expect(classifyHost('[2606:2800::1]')).toEqual({ kind: 'ip', host: '2606:2800::1' });
    expect(classifyHost('Example.COM.')).toEqual({ kind: 'name', host: 'example.com' });
    expect(classifyHost('1password.com')).toEqual({ kind: 'name', host: '1password.com' });
  });

  it('calls numeric spellings of IPv4 odd, whatever they encode', () => {
    for (const host of [
      '2130706433',
      '0177.0.0.1',
      '0x7f.1',
      '127.1',
      '0x7F000001',
      '017700000001',
      '8.8.2056',
      '1.2.3.0x4',
      'a.0x10',
      'foo.123',
    ]) {
      expect(classifyHost(host).kind, host).toBe('odd-ip');
    }
  });

  it('tells IPv4 spellings exactly as ipaddr.js does, names told without asking it', () => {
    // Numbers in decimal, octal and hex, one to four parts: the spellings ipaddr.js reads, and some it refuses.
    const part = fc
      .tuple(fc.integer({ min: 0, max: 300 }), fc.constantFrom(10, 8, 16))
      .map(([n, radix]) => (radix === 10 ? String(n) : radix === 8 ? `0${n.toString(8)}` : `0x${n.toString(16)}`));
    const host = fc.oneof(
      fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.')),
      fc.stringMatching(/^[0-9a-fxA-FX.]{1,20}$/),
      fc.stringMatching(/^[0-9a-z.-]{1,20}$/),
    );
    fc.assert(
      fc.property(host, (h) => {
        const lower = h.toLowerCase().replace(/\.$/, '');
        const last = lower.split('.').pop() ?? '';
        const want = ipaddr.IPv4.isValidFourPartDecimal(lower)
          ? 'ip'
          : ipaddr.IPv4.isValid(lower) || /^(?:0x[0-9a-f]*|\d+)$/.test(last)
            ? 'odd-ip'
            : 'name';
        expect(classifyHost(h).kind, h).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the host of a URL as written, before WHATWG parsing rewrites it', () => {
    expect(rawUrlHost('http://0x7f.1:8080/x')).toBe('0x7f.1');
    expect(rawUrlHost('https://user:pw@2130706433/')).toBe('2130706433');
    expect(rawUrlHost('//[::1]/a')).toBe('[::1]');
    expect(rawUrlHost('/relative/path')).toBeNull();
    expect(new URL('http://0x7f.1/').hostname).toBe('127.0.0.1');
  });
});
