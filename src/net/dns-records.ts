// Turns dns-packet's decoded resource records into plain JSON facts: names lower-case without the trailing
// dot, binary fields as hex, TXT strings decoded as UTF-8 (a multi-string record stays an array).
import { normaliseName } from '../lib/domain-name.ts';
import ipaddr from 'ipaddr.js';
import type { DnsRecord, DnsRecordType } from './types.ts';
import { decodeSvcb } from './svcb-codec.ts';

/** Wire type numbers of the types dns-packet does not name; it reports them as `UNKNOWN_<n>`. */
const UNNAMED_TYPES: Partial<Record<DnsRecordType, number>> = { SVCB: 64, HTTPS: 65 };

/** The type string dns-packet expects in a question. */
export function wireTypeName(type: DnsRecordType): string {
  const number = UNNAMED_TYPES[type];
  return number === undefined ? type : `UNKNOWN_${number}`;
}

/** A decoded record as dns-packet hands it over (its typings do not cover the unknown types). */
export interface WireRecord {
  name: string;
  type: string;
  ttl?: number;
  data?: unknown;
}

const hex = (b: unknown): string => Buffer.from(b as Uint8Array).toString('hex');

function decodeData(type: string, data: unknown): unknown {
  switch (type) {
    case 'A':
    case 'AAAA':
      return ipaddr.parse(data as string).toString();
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'DNAME':
      return normaliseName(data as string);
    case 'MX': {
      const mx = data as { preference: number; exchange: string };
      return { preference: mx.preference, exchange: normaliseName(mx.exchange) };
    }
    case 'TXT':
      return (Array.isArray(data) ? data : [data]).map((s) =>
        typeof s === 'string' ? s : Buffer.from(s as Uint8Array).toString('utf8'),
      );
    case 'SOA': {
      const soa = data as {
        mname: string;
        rname: string;
        serial: number;
        refresh: number;
        retry: number;
        expire: number;
        minimum: number;
      };
      return {
        mname: normaliseName(soa.mname),
        rname: normaliseName(soa.rname),
        serial: soa.serial,
        refresh: soa.refresh,
        retry: soa.retry,
        expire: soa.expire,
        minimum: soa.minimum,
      };
    }
    case 'CAA': {
      const caa = data as { flags: number; tag: string; value: string };
      return { flags: caa.flags, tag: caa.tag.toLowerCase(), value: caa.value };
    }
    case 'DS': {
      const ds = data as { keyTag: number; algorithm: number; digestType: number; digest: Uint8Array };
      return { key_tag: ds.keyTag, algorithm: ds.algorithm, digest_type: ds.digestType, digest: hex(ds.digest) };
    }
    case 'DNSKEY': {
      // dns-packet refuses any protocol other than 3 while decoding, so a decoded key always has 3.
      const key = data as { flags: number; algorithm: number };
      return { flags: key.flags, protocol: 3, algorithm: key.algorithm };
    }
    case 'RRSIG': {
      const sig = data as {
        typeCovered: string;
        algorithm: number;
        labels: number;
        originalTTL: number;
        expiration: number;
        inception: number;
        keyTag: number;
        signersName: string;
      };
      return {
        type_covered: sig.typeCovered,
        algorithm: sig.algorithm,
        labels: sig.labels,
        original_ttl: sig.originalTTL,
        expiration: sig.expiration,
        inception: sig.inception,
        key_tag: sig.keyTag,
        signer_name: normaliseName(sig.signersName),
      };
    }
    case 'UNKNOWN_64':
    case 'UNKNOWN_65':
      return decodeSvcb(Buffer.from(data as Uint8Array));
    default:
      return Buffer.isBuffer(data) ? { rdata_hex: hex(data) } : null;
  }
}

const TYPE_NAMES: Record<string, string> = { UNKNOWN_64: 'SVCB', UNKNOWN_65: 'HTTPS' };

export function decodeRecord(record: WireRecord): DnsRecord {
  return {
    name: normaliseName(record.name),
    type: TYPE_NAMES[record.type] ?? record.type,
    ttl: record.ttl ?? 0,
    data: decodeData(record.type, record.data),
  };
}
