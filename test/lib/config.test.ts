import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/lib/config.ts';

const fileWith = (value: unknown): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'dvs-config-')), 'config.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
};

describe('loadConfig', () => {
  it('refuses an allowed network that is not a CIDR range, at start', () => {
    for (const bad of ['10.0.0.0/40', '300.1.1.1/8', '::1/129', 'fe80::zz/64']) {
      expect(() => loadConfig({ DVS_ALLOW_NETWORKS: bad }), bad).toThrow(ConfigError);
    }
    expect(loadConfig({ DVS_ALLOW_NETWORKS: '127.0.0.0/8, ::1/128' }).net.allowNetworks).toEqual([
      '127.0.0.0/8',
      '::1/128',
    ]);
  });

  it('reads the origins allowed to call /mcp, refusing any not written as browsers send Origin', () => {
    for (const bad of ['https://a.example/', 'https://a.example/path', 'ftp://a.example', 'a.example', 'null'])
      expect(() => loadConfig({ DVS_MCP_ALLOWED_ORIGINS: bad }), bad).toThrow(/DVS_MCP_ALLOWED_ORIGINS/);
    const origins = 'https://console.example.org, http://localhost:6274';
    expect(loadConfig({ DVS_MCP_ALLOWED_ORIGINS: origins }).mcpAllowedOrigins).toEqual([
      'https://console.example.org',
      'http://localhost:6274',
    ]);
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
  });

  it('reads lists, numbers and booleans from the config file as the environment would spell them', () => {
    const file = fileWith({
      DVS_DNS_SERVERS: ['127.0.0.1:5353', '[::1]:53'],
      DVS_PORT: 9443,
      DVS_TRUST_PROXY: true,
      DVS_DATABASE_URL: null,
    });
    const config = loadConfig({ DVS_CONFIG_FILE: file });
    expect(config.net.dnsServers).toEqual(['127.0.0.1:5353', '[::1]:53']);
    expect(config.listen.port).toBe(9443);
    expect(config.trustProxy).toEqual({ header: 'x-forwarded', hops: 1, networks: [] });
    expect(config.databaseUrl).toBeNull();
  });

  it('lets the environment win over the file, and refuses a nested object in the file', () => {
    expect(loadConfig({ DVS_CONFIG_FILE: fileWith({ DVS_PORT: 9443 }), DVS_PORT: '9444' }).listen.port).toBe(9444);
    expect(() => loadConfig({ DVS_CONFIG_FILE: fileWith({ DVS_PORT: { value: 1 } }) })).toThrow(/DVS_PORT/);
  });

  it('normalises extra suffixes to bare lower-case labels', () => {
    expect(loadConfig({ DVS_EXTRA_SUFFIXES: '.Test. example' }).extraSuffixes).toEqual(['test', 'example']);
  });
});
