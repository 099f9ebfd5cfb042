// Minimal in-test servers for the network layer's tests: a scripted DNS server (UDP and TCP on one port), plain
// HTTP/HTTPS servers on chosen loopback addresses, and a throwaway CA. Everything listens on 127.0.0.0/8.
import 'reflect-metadata';
import dgram from 'node:dgram';
import net from 'node:net';
import http from 'node:http';
import https from 'node:https';
import http2 from 'node:http2';
import { webcrypto } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import * as x509 from '@peculiar/x509';
import { loadConfig, type Config } from '../../src/lib/config.ts';
import { listenUdpAndTcp } from '../world/dns-server.ts';
import { trackSockets } from '../world/open-sockets.ts';

export interface DnsQuery {
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
  dnssecOk: boolean;
}

export interface DnsReply {
  answers?: dnsPacket.Answer[];
  authorities?: dnsPacket.Answer[];
  rcode?: number;
  /** Extra header flags (AUTHENTIC_DATA, AUTHORITATIVE_ANSWER...). */
  flags?: number;
  /** Over UDP, answer with TC set and no records, so the client must ask again over TCP. */
  truncateUdp?: boolean;
  /** Send nothing at all. */
  silent?: boolean;
  /** Send first a reply whose id does not match (a spoofing attempt the client must ignore). */
  spoofFirst?: dnsPacket.Answer[];
}

export interface DnsServer {
  server: string;
  queries: DnsQuery[];
  close(): Promise<void>;
}

export type DnsScript = (query: DnsQuery, count: number) => DnsReply;

export async function startDnsServer(script: DnsScript): Promise<DnsServer> {
  const queries: DnsQuery[] = [];

  const reply = (buf: Buffer, transport: 'udp' | 'tcp'): Buffer[] => {
    const query = dnsPacket.decode(buf);
    const question = query.questions![0]!;
    const opt = query.additionals?.find((a) => a.type === 'OPT') as { flags?: number } | undefined;
    const q: DnsQuery = {
      name: question.name,
      type: String(question.type),
      transport,
      dnssecOk: ((opt?.flags ?? 0) & dnsPacket.DNSSEC_OK) !== 0,
    };
    queries.push(q);
    const r = script(q, queries.filter((x) => x.name === q.name && x.type === q.type).length);
    if (r.silent) return [];
    const truncated = transport === 'udp' && r.truncateUdp === true;
    const packet = (id: number, answers: dnsPacket.Answer[]): Buffer =>
      dnsPacket.encode({
        type: 'response',
        id,
        flags:
          (r.flags ?? 0) |
          (r.rcode ?? 0) |
          dnsPacket.RECURSION_DESIRED |
          (truncated ? dnsPacket.TRUNCATED_RESPONSE : 0),
        questions: query.questions,
        answers: truncated ? [] : answers,
        authorities: truncated ? [] : (r.authorities ?? []),
      });
    const out = [packet(query.id!, r.answers ?? [])];
    if (r.spoofFirst) out.unshift(packet((query.id! + 1) % 65536, r.spoofFirst));
    return out;
  };

  const serveTcp = (socket: net.Socket): void => {
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const len = buf.readUInt16BE(0);
        for (const b of reply(buf.subarray(2, 2 + len), 'tcp')) {
          const framed = Buffer.alloc(2 + b.length);
          framed.writeUInt16BE(b.length);
          b.copy(framed, 2);
          socket.write(framed);
        }
        buf = buf.subarray(2 + len);
      }
    });
    socket.on('error', () => undefined);
  };
  const { udp, tcp, port } = await listenUdpAndTcp('127.0.0.1', () => {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      for (const b of reply(msg, 'udp')) socket.send(b, rinfo.port, rinfo.address);
    });
    return { udp: socket, tcp: net.createServer(serveTcp) };
  });
  return {
    server: `127.0.0.1:${port}`,
    queries,
    close: async () => {
      udp.close();
      await new Promise((resolve) => tcp.close(resolve));
    },
  };
}

/** A zone as a map `name|TYPE` -> records; unknown names are NXDOMAIN, known names without the type NODATA. */
export function zone(records: Record<string, dnsPacket.Answer[]>): DnsScript {
  return (q) => {
    const answers = records[`${q.name.toLowerCase()}|${q.type}`];
    if (answers) return { answers };
    const known = Object.keys(records).some((k) => k.startsWith(`${q.name.toLowerCase()}|`));
    return known ? {} : { rcode: 3 };
  };
}

export const a = (name: string, address: string): dnsPacket.Answer => ({ type: 'A', name, ttl: 60, data: address });

export function testConfig(env: Record<string, string>): Config {
  return loadConfig({ DVS_DATA_DIR: tmpdir(), DVS_REQUEST_TIMEOUT_MS: '3000', DVS_DNS_TIMEOUT_MS: '1000', ...env });
}

export interface LocalServer {
  port: number;
  close(): Promise<void>;
}

async function listen(server: net.Server, host: string, port = 0): Promise<LocalServer> {
  const destroySockets = trackSockets(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      destroySockets();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const startHttpServer = (host: string, handler: http.RequestListener, port?: number): Promise<LocalServer> =>
  listen(http.createServer(handler), host, port);

export const startHttpsServer = (
  host: string,
  tls: { cert: string; key: string },
  handler: http.RequestListener,
): Promise<LocalServer> => listen(https.createServer(tls, handler), host);

/** An HTTPS server that offers h2 in ALPN (and HTTP/1.1 to clients that offer nothing else), as most sites do. */
export const startHttp2Server = (
  host: string,
  tls: { cert: string; key: string },
  handler: (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
  settings: http2.Settings = {},
): Promise<LocalServer> => listen(http2.createSecureServer({ ...tls, allowHTTP1: true, settings }, handler), host);

/** A raw TCP server for misbehaving peers (endless headers, trickling bytes). */
export function startRawServer(host: string, onSocket: (socket: net.Socket) => void): Promise<LocalServer> {
  const server = net.createServer((s) => {
    s.on('error', () => undefined);
    onSocket(s);
  });
  return listen(server, host);
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const pem = (label: string, der: ArrayBuffer): string =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

export interface TestCa {
  caFile: string;
  issue(names: string[]): Promise<{ cert: string; key: string }>;
}

/** A CA made for one test file, its certificate written to a temp file for DVS_EXTRA_CA. */
export async function makeTestCa(commonName = 'DVS net test CA'): Promise<TestCa> {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const notBefore = new Date(Date.now() - 3600_000);
  const notAfter = new Date(Date.now() + 86400_000);
  const caKeys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${commonName}`,
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'dvs-net-ca-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.toString('pem'));
  let serial = 2;
  return {
    caFile,
    async issue(names) {
      const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
      const leaf = await x509.X509CertificateGenerator.create({
        serialNumber: (serial++).toString(16).padStart(2, '0'),
        subject: `CN=${names[0]}`,
        issuer: ca.subject,
        notBefore,
        notAfter,
        signingKey: caKeys.privateKey,
        publicKey: keys.publicKey,
        signingAlgorithm: ALG,
        extensions: [
          new x509.BasicConstraintsExtension(false),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value }))),
        ],
      });
      return {
        cert: leaf.toString('pem'),
        key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
      };
    },
  };
}
