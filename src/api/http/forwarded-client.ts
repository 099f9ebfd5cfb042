// Who the client is behind trusted proxies. Each proxy appends the address it received the request from (and
// the protocol it was received over) to X-Forwarded-For/-Proto or to Forwarded (RFC 7239); whatever the client
// wrote itself sits further left. So the chain is walked from the right, from the socket's peer, past the
// trusted proxies (a hop count, or the proxies' networks), and the first address they did not add themselves is
// the client. Its protocol is read from the same hop.
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import parseForwarded from 'forwarded-parse';
import ipaddr from 'ipaddr.js';
import type { ProxyTrust } from '../../lib/config.ts';
import { ApiError } from './errors.ts';
import { SPACE_OR_TAB, trimOf } from '../../lib/trim.ts';

/** One hop of the chain: the address a proxy received the request from, and over which protocol. */
export interface Hop {
  address: string | null;
  proto: string | null;
}

/** A request header's value, or '' when it is absent (as Koa's ctx.get reads it). */
const header = (req: IncomingMessage, name: string): string => String(req.headers[name] ?? '');

const list = (value: string): string[] =>
  value === '' ? [] : value.split(',').map((s) => trimOf(s, SPACE_OR_TAB).toLowerCase());

/** An address as the proxy wrote it, without a port and with IPv4-mapped IPv6 unwrapped; null if it is none. */
export function nodeAddress(node: string | null | undefined): string | null {
  if (!node) return null;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  const bare = bracketed ? bracketed[1]! : /^[\d.]+:\d+$/.test(node) ? node.replace(/:\d+$/, '') : node;
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toString() : null;
}

/**
 * The hops the headers name, leftmost first: each proxy appends to both lists, so entries pair from the right
 * (a proxy that writes only X-Forwarded-Proto leaves the hop's address unknown).
 */
function xForwardedHops(req: IncomingMessage): Hop[] {
  const fors = list(header(req, 'x-forwarded-for'));
  const protos = list(header(req, 'x-forwarded-proto'));
  const n = Math.max(fors.length, protos.length);
  return Array.from({ length: n }, (_, i) => ({
    address: nodeAddress(fors[i - (n - fors.length)]),
    proto: protos[i - (n - protos.length)] ?? null,
  }));
}

function forwardedHops(req: IncomingMessage): Hop[] {
  const value = header(req, 'forwarded');
  if (value === '') return [];
  try {
    return parseForwarded(value).map((e) => ({ address: nodeAddress(e.for), proto: e.proto?.toLowerCase() ?? null }));
  } catch (err) {
    throw new ApiError(400, `the Forwarded header is malformed (RFC 7239): ${(err as Error).message}`, '/docs/api');
  }
}

function trusted(address: string | null, networks: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][]): boolean {
  if (address === null) return false;
  const parsed = ipaddr.parse(address);
  return networks.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
}

/** The hop of the client in `chain` (the socket's peer last): `hops` from the right, or past the trusted networks. */
export function clientHop(chain: readonly Hop[], trust: Pick<ProxyTrust, 'hops' | 'networks'>): Hop {
  if (trust.hops !== null) return chain[Math.max(0, chain.length - 1 - trust.hops)]!;
  const networks = trust.networks.map((c) => ipaddr.parseCIDR(c));
  let i = chain.length - 1;
  while (i > 0 && trusted(chain[i]!.address, networks)) i--;
  return chain[i]!;
}

/**
 * The client's hop behind the trusted proxies: its address (the socket's peer when the proxies name none) and the
 * protocol it used (lower case). A malformed Forwarded header is the caller's 400.
 */
export function forwardedHop(req: IncomingMessage, trust: ProxyTrust): { address: string; proto: string } {
  const peer = nodeAddress(req.socket.remoteAddress) ?? req.socket.remoteAddress ?? '';
  const hops = trust.header === 'forwarded' ? forwardedHops(req) : xForwardedHops(req);
  const hop = clientHop([...hops, { address: peer, proto: 'https' }], trust);
  // A client whose address a proxy hid ("unknown", an obfuscated name) is keyed by the nearest proxy: such
  // clients share one budget rather than each writing its own key.
  return { address: hop.address ?? peer, proto: hop.proto ?? 'https' };
}

/** Sets ctx.ip to the client's address and ctx.state.forwardedProto to the protocol it used (lower case). */
export function forwardedClient(trust: ProxyTrust): Middleware {
  return async function findClient(ctx, next) {
    const hop = forwardedHop(ctx.req, trust);
    ctx.request.ip = hop.address;
    ctx.state.forwardedProto = hop.proto;
    await next();
  };
}
