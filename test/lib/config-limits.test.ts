// Settings that only make sense together, and the new listener settings, refused or read at start.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/lib/config.ts';

describe('the reservation lease and the Full Validation deadline', () => {
  it('refuses a lease that is not longer than the deadline, naming both settings', () => {
    for (const [lease, deadline] of [
      ['60s', '90000'],
      ['90s', '90000'],
      ['91s', '90000'],
      ['1m', '120000'],
    ] as const) {
      const load = () => loadConfig({ DVS_RESERVATION_LEASE: lease, DVS_FULL_DEADLINE_MS: deadline });
      expect(load, `${lease} vs ${deadline}`).toThrow(ConfigError);
      expect(load).toThrow(/DVS_RESERVATION_LEASE.*DVS_FULL_DEADLINE_MS/);
    }
  });

  it('accepts a lease that outlives the deadline, and the defaults', () => {
    expect(loadConfig({ DVS_RESERVATION_LEASE: '92s', DVS_FULL_DEADLINE_MS: '90000' }).payments).toMatchObject({
      reservationLeaseSeconds: 92,
    });
    const defaults = loadConfig({});
    expect(defaults.payments.reservationLeaseSeconds * 1000).toBeGreaterThan(defaults.deadlines.fullMs);
  });
});

describe('the metrics listener address', () => {
  it('is 127.0.0.1 unless DVS_METRICS_HOST says otherwise, whatever DVS_HOST is', () => {
    expect(loadConfig({ DVS_HOST: '0.0.0.0' }).listen.metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ DVS_METRICS_HOST: '10.0.0.5' }).listen.metricsHost).toBe('10.0.0.5');
  });
});
