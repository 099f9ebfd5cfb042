// A raw DNS client: one question to the configured resolvers over UDP, retried over TCP when the answer
// is truncated. Raw, because the facts probes need (AD/AA bits, HTTPS, DS, DNSKEY, rcodes) are not available
// through getaddrinfo or node:dns.
import dgram from 'node:dgram';
import net from 'node:net';
import { randomInt } from 'node:crypto';
import { getServers } from 'node:dns';
import dnsPacket from 'dns-packet';
import ipaddr from 'ipaddr.js';
import { NetError, type DnsRecordType, type DnsResponse } from './types.ts';
import { normaliseName } from '../lib/domain-name.ts';
import { decodeRecord, wireTypeName, type WireRecord } from './dns-records.ts';
import { createDeadline } from './deadline.ts';
import { onAbort } from './on-abort.ts';
import { abortReason } from '../lib/abort-reason.ts';

export interface DnsServer {
  host: string;
  port: number;
  family: 4 | 6;
}

export interface DnsQueryOptions {
  signal?: AbortSignal;
  /** Set the EDNS DO bit so a validating resolver returns DNSSEC records. */
  dnssecOk?: boolean;
  /** Skip UDP and ask over TCP straight away. */
  tcp?: boolean;
}

export interface DnsClient {
  query(name: string, type: DnsRecordType, opts?: DnsQueryOptions): Promise<DnsResponse>;
}

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];
const EDNS_UDP_SIZE = 1232;

/** Parses `host`, `host:port`, `[v6]:port` or a bare v6 address (the shapes `dns.getServers()` returns). */
export function parseDnsServer(entry: string): DnsServer {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(entry);
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : plain ? [plain[1]!, plain[2]] : [entry, undefined];
  if (!ipaddr.isValid(host)) throw new Error(`DNS server "${entry}" is not an IP address`);
  return { host, port: port ? Number(port) : 53, family: ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6 };
}

function checkName(name: string): string {
  const normal = normaliseName(name);
  const labels = normal === '.' ? [] : normal.split('.');
  if (normal.length > 253 || labels.some((l) => l.length === 0 || l.length > 63)) {
    throw new NetError('dns_error', `"${name}" is not a valid DNS name`);
  }
  return normal;
}

interface Question {
  id: number;
  name: string;
  type: string;
}

function matches(packet: dnsPacket.DecodedPacket, q: Question): boolean {
  const asked = packet.questions?.[0];
  return (
    packet.type === 'response' &&
    packet.id === q.id &&
    asked !== undefined &&
    normaliseName(asked.name) === normaliseName(q.name) &&
    String(asked.type) === q.type
  );
}

function tryDecode(buf: Buffer): dnsPacket.DecodedPacket | null {
  try {
    return dnsPacket.decode(buf);
  } catch {
    return null;
  }
}

/** UDP sends of one question within its time limit: a lost datagram must not cost the whole answer. */
const UDP_SENDS = 3;

/**
 * Waits for the response to `q` on UDP, sending the question again every `resendMs` (RFC 1035 section 4.2.1:
 * UDP is unreliable, so a client retransmits); datagrams with another id or question are ignored (spoofing).
 */
function overUdp(
  server: DnsServer,
  query: Buffer,
  q: Question,
  signal: AbortSignal,
  resendMs: number,
): Promise<dnsPacket.DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(server.family === 4 ? 'udp4' : 'udp6');
    const send = (): void => socket.send(query, server.port, server.host);
    const resend = setInterval(send, resendMs);
    const finish = (fn: () => void): void => {
      clearInterval(resend);
      unsubscribe();
      socket.close();
      fn();
    };
    const unsubscribe = onAbort(signal, () => finish(() => reject(abortReason(signal))));
    socket.on('message', (msg, rinfo) => {
      if (rinfo.port !== server.port) return;
      const packet = tryDecode(msg);
      if (packet && matches(packet, q)) finish(() => resolve(packet));
    });
    socket.on('error', (err) =>
      finish(() => reject(new NetError('dns_error', `UDP to ${server.host}: ${err.message}`))),
    );
    send();
  });
}

/** One length-prefixed exchange over TCP (RFC 7766). */
function overTcp(server: DnsServer, query: Buffer, q: Question, signal: AbortSignal): Promise<dnsPacket.DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: server.host, port: server.port });
    let received = Buffer.alloc(0);
    const finish = (fn: () => void): void => {
      unsubscribe();
      socket.destroy();
      fn();
    };
    const unsubscribe = onAbort(signal, () => finish(() => reject(abortReason(signal))));
    socket.on('connect', () => {
      const framed = Buffer.alloc(2 + query.length);
      framed.writeUInt16BE(query.length);
      query.copy(framed, 2);
      socket.write(framed);
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2) return;
      const length = received.readUInt16BE(0);
      if (received.length < 2 + length) return;
      const packet = tryDecode(received.subarray(2, 2 + length));
      if (packet && matches(packet, q)) finish(() => resolve(packet));
      else
        finish(() => reject(new NetError('dns_error', `TCP answer from ${server.host} does not match the question`)));
    });
    socket.on('error', (err) =>
      finish(() => reject(new NetError('dns_error', `TCP to ${server.host}: ${err.message}`))),
    );
    socket.on('end', () =>
      finish(() => reject(new NetError('dns_error', `TCP to ${server.host} closed before an answer`))),
    );
  });
}

function toResponse(packet: dnsPacket.DecodedPacket, server: DnsServer): DnsResponse {
  const flags = packet.flags ?? 0;
  const rcode = flags & 0x0f;
  const records = (list: dnsPacket.Answer[] | undefined) =>
    (list ?? []).filter((r) => r.type !== 'OPT').map((r) => decodeRecord(r as WireRecord));
  return {
    rcode: RCODES[rcode] ?? `RCODE${rcode}`,
    flags: {
      ad: (flags & dnsPacket.AUTHENTIC_DATA) !== 0,
      aa: (flags & dnsPacket.AUTHORITATIVE_ANSWER) !== 0,
      tc: (flags & dnsPacket.TRUNCATED_RESPONSE) !== 0,
    },
    answers: records(packet.answers),
    authorities: records(packet.authorities),
    server: server.family === 6 ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`,
  };
}

export function createDnsClient(opts: { servers: readonly string[]; timeoutMs: number }): DnsClient {
  const configured = opts.servers.length > 0 ? opts.servers : getServers();
  const servers = configured.map(parseDnsServer);
  if (servers.length === 0) throw new Error('no DNS servers configured and none found on the system');
  // The time limit covers the whole query; with several resolvers each gets its share, so a dead first
  // resolver still leaves time to ask the next.
  const perServerMs = Math.max(50, Math.floor(opts.timeoutMs / servers.length));

  async function ask(server: DnsServer, name: string, type: string, query: DnsQueryOptions): Promise<DnsResponse> {
    const q: Question = { id: randomInt(0, 65536), name, type };
    const packet = dnsPacket.encode({
      type: 'query',
      id: q.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
      questions: [{ type: type as dnsPacket.RecordType, name }],
      additionals: [
        {
          type: 'OPT',
          name: '.',
          udpPayloadSize: EDNS_UDP_SIZE,
          flags: query.dnssecOk ? dnsPacket.DNSSEC_OK : 0,
        } as dnsPacket.Answer,
      ],
    });
    const deadline = createDeadline(perServerMs, query.signal);
    try {
      // A signal that fired before the question was sent would never reach the socket's abort listener.
      deadline.check('dns_timeout');
      let answer = query.tcp
        ? null
        : await overUdp(server, packet, q, deadline.signal, Math.max(50, Math.floor(perServerMs / UDP_SENDS)));
      if (answer === null || (answer.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE) {
        answer = await overTcp(server, packet, q, deadline.signal);
      }
      return toResponse(answer, server);
    } catch (err) {
      if (deadline.signal.aborted) throw deadline.failure('dns_timeout');
      throw err;
    } finally {
      deadline.clear();
    }
  }

  return {
    async query(name, type, query = {}) {
      const qname = checkName(name);
      let lastError: NetError | null = null;
      for (const server of servers) {
        try {
          return await ask(server, qname, wireTypeName(type), query);
        } catch (err) {
          if (!(err instanceof NetError) || err.code === 'aborted') throw err;
          lastError = err;
        }
      }
      throw lastError!;
    },
  };
}
