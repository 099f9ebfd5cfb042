// The `dvs` command: one dispatcher over small command modules, each loaded only when used.
import { loadConfig, ConfigError } from './lib/config.ts';
import { RulesetError } from './catalogue/ruleset-error.ts';
import { UsageError, type CliIo, type Command } from './cli/io.ts';

const COMMANDS: Record<string, { about: string; load: () => Promise<{ run: Command }> }> = {
  serve: { about: 'run the service on HTTPS (what npm start does)', load: () => import('./cli/serve.ts') },
  rules: { about: 'start a rule, check, document and lock the rule catalogue', load: () => import('./cli/rules.ts') },
  scan: { about: 'scan a domain and print its report', load: () => import('./cli/scan.ts') },
  diff: {
    about: 'compare two reports or certificates: the rules that changed outcome',
    load: () => import('./cli/diff.ts'),
  },
  evaluate: { about: 'evaluate saved observations offline', load: () => import('./cli/evaluate.ts') },
  certify: {
    about: 'evaluate saved observations fully and write a signed certificate',
    load: () => import('./cli/certify.ts'),
  },
  verify: {
    about: 'verify a certificate: signature, integrity and, with --dns, its DNS anchors',
    load: () => import('./cli/verify.ts'),
  },
  certificates: {
    about: 'show the status of an issued certificate, or revoke it with a reason',
    load: () => import('./cli/certificates.ts'),
  },
  log: {
    about: "print the issuer's signed tree head, or audit that a newer head extends an older one",
    load: () => import('./cli/log.ts'),
  },
  tokens: { about: 'issue payment tokens and show their status', load: () => import('./cli/tokens.ts') },
  batch: {
    about: 'submit domains in bulk to a running service, follow a batch and read its results',
    load: () => import('./cli/batch.ts'),
  },
  monitors: {
    about: 'create and manage monitors: a domain Full-Validated on a schedule, paid by prepaid tokens',
    load: () => import('./cli/monitors.ts'),
  },
  accounts: {
    about: 'create, list and revoke the accounts (API keys) of the batch API',
    load: () => import('./cli/accounts.ts'),
  },
  keys: { about: 'print the public JWK set or the issuer DNS anchor', load: () => import('./cli/keys.ts') },
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  return [
    'usage: dvs <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.about}`),
    '',
    'Configuration comes from DVS_* environment variables (see docs/operations.md).',
  ].join('\n');
}

export async function main(argv: string[], io?: Partial<CliIo>): Promise<number> {
  const stdout = io?.stdout ?? process.stdout;
  const stderr = io?.stderr ?? process.stderr;
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    stdout.write(help() + '\n');
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    stderr.write(`dvs: unknown command "${name}"\n\n${help()}\n`);
    return 2;
  }
  try {
    const config = io?.config ?? loadConfig();
    const { run } = await command.load();
    return await run(args, { stdout, stderr, config });
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      stderr.write(`dvs ${name}: ${(err as Error).message}\n`);
      return 2;
    }
    if (err instanceof ConfigError || err instanceof RulesetError) {
      stderr.write(`dvs ${name}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
