// Who the service says it is in every published document and in the MCP handshake.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../lib/paths.ts';

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

export const SERVICE_INFO = {
  name: 'domain-validation-service',
  title: 'Domain Validation Service',
  version: pkg.version,
  description:
    "Tells whether a domain's web infrastructure is ready for AI agents: a free Quick Scan (indicative verdict, score, top findings) and a paid Full Validation of every rule with an Ed25519-signed certificate.",
} as const;
