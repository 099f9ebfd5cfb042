// What a relying party checks of the issuer's transparency log: that a certificate is in it (its inclusion
// path leads from its leaf to the root of a signed tree head), and that a newer signed head extends an older
// one (a consistency proof between their sizes). Heads are checked against the issuer's key set.
import { canonicalBytes } from '../lib/canonical-json.ts';
import { leafHash, verifyConsistency, verifyInclusion } from '../lib/merkle.ts';
import { parseStrictJson } from '../lib/strict-json.ts';
import type { IssuerClient } from './issuer-client.ts';
import type { Jwks } from './jwks.ts';
import { shapeProblem, validConsistency, validInclusion, type LogInclusion, type TreeHead } from './log-shapes.ts';
import type { Certificate } from './payload.ts';
import { verifyTreeHead } from './tree-head.ts';
import type { Check } from './check.ts';

/** An inclusion proof is a few kilobytes at most (64 hashes and a head). */
const MAX_PROOF_BYTES = 64 * 1024;

const hashes = (hex: readonly string[]) => hex.map((h) => Buffer.from(h, 'hex'));

/** The certificate's leaf in the log: the canonical JSON of {payload, jws}, as the issuer stores and serves it. */
export const certificateLeaf = ({ payload, jws }: Certificate): Uint8Array => canonicalBytes({ payload, jws });

export function inclusionCheck(
  cert: Certificate,
  proof: LogInclusion,
  jwks: Jwks,
  name: 'inclusion' | 'log' = 'inclusion',
): Check {
  const head = verifyTreeHead(proof.tree_head, jwks);
  if (!head.ok) return { name, ok: false, detail: head.reason };
  if (proof.certificate_id !== cert.payload.id)
    return { name, ok: false, detail: `the proof is for ${proof.certificate_id}, not ${cert.payload.id}` };
  if (proof.tree_size !== head.head.tree_size)
    return {
      name,
      ok: false,
      detail: `the proof is for a tree of ${proof.tree_size}, its head of ${head.head.tree_size}`,
    };
  const included = verifyInclusion({
    index: proof.leaf_index,
    size: proof.tree_size,
    leafHash: leafHash(certificateLeaf(cert)),
    path: hashes(proof.inclusion_path),
    root: Buffer.from(head.head.root_hash, 'hex'),
  });
  if (!included)
    return {
      name,
      ok: false,
      detail: `leaf ${proof.leaf_index} does not lead to the root of the signed tree head of size ${proof.tree_size}`,
    };
  return {
    name,
    ok: true,
    detail: `leaf ${proof.leaf_index} of the log, in the tree head of size ${proof.tree_size} (${head.head.timestamp}) signed by ${head.kid}`,
  };
}

/** Asks the issuer for the certificate's inclusion proof against its current head, and checks it. */
export async function onlineInclusionCheck(client: IssuerClient, cert: Certificate, jwks: Jwks): Promise<Check> {
  const where = `/log/proof/${encodeURIComponent(cert.payload.id)}`;
  let proof: unknown;
  try {
    const res = await client.get(where, MAX_PROOF_BYTES);
    // A 404 is an answer, not a failure to read: the issuer logged no such certificate.
    if (res.status === 404)
      return { name: 'log', ok: false, detail: `${cert.payload.id} is not in ${client.origin}'s transparency log` };
    if (res.status !== 200) throw new Error(`${client.origin}${where}: HTTP ${res.status}`);
    proof = parseStrictJson(res.body.toString('utf8'));
  } catch (err) {
    return { name: 'log', ok: false, detail: `the issuer's log could not be read: ${(err as Error).message}` };
  }
  if (!validInclusion(proof))
    return {
      name: 'log',
      ok: false,
      detail: `${client.origin}${where} is not an inclusion proof: ${shapeProblem(validInclusion)}`,
    };
  return inclusionCheck(cert, proof, jwks, 'log');
}

export interface AuditResult {
  ok: boolean;
  lines: string[];
}

/**
 * `dvs log audit`: both heads signed by the issuer, the newer not smaller, and the consistency proof the issuer
 * gives between their sizes leads from the old root to the new one.
 */
export async function auditHeads(
  client: IssuerClient,
  older: unknown,
  newer: unknown,
  jwks: Jwks,
): Promise<AuditResult> {
  const lines: string[] = [];
  const heads: TreeHead[] = [];
  for (const [label, value] of [
    ['old', older],
    ['new', newer],
  ] as const) {
    const head = verifyTreeHead(value, jwks);
    if (!head.ok) return { ok: false, lines: [...lines, `✗ ${label} head: ${head.reason}`] };
    lines.push(`✓ ${label} head: size ${head.head.tree_size}, root ${head.head.root_hash}, signed by ${head.kid}`);
    heads.push(head.head);
  }
  const [a, b] = heads as [TreeHead, TreeHead];
  if (a.tree_size > b.tree_size)
    return {
      ok: false,
      lines: [...lines, `✗ consistency: the old head (${a.tree_size}) is larger than the new (${b.tree_size})`],
    };
  if (a.tree_size === 0) return { ok: true, lines: [...lines, '✓ consistency: every log extends the empty one'] };
  let proof: unknown;
  const where = `/log/consistency?from=${a.tree_size}&to=${b.tree_size}`;
  try {
    proof = await client.getJson(where, MAX_PROOF_BYTES);
  } catch (err) {
    return { ok: false, lines: [...lines, `✗ consistency: ${(err as Error).message}`] };
  }
  if (!validConsistency(proof) || proof.from !== a.tree_size || proof.to !== b.tree_size)
    return {
      ok: false,
      lines: [...lines, `✗ consistency: ${client.origin}${where} did not answer a proof between these sizes`],
    };
  const consistent = verifyConsistency({
    first: a.tree_size,
    second: b.tree_size,
    path: hashes(proof.consistency_path),
    firstRoot: Buffer.from(a.root_hash, 'hex'),
    secondRoot: Buffer.from(b.root_hash, 'hex'),
  });
  lines.push(
    consistent
      ? `✓ consistency: the tree of ${b.tree_size} extends the tree of ${a.tree_size} (${proof.consistency_path.length} hashes)`
      : `✗ consistency: the proof does not lead from the old root to the new one: the log was rewritten, or the heads come from different logs`,
  );
  return { ok: consistent, lines };
}
