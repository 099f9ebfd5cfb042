// Versioned schema migrations: numbered SQL files per backend, applied in order, each recorded in
// schema_migrations so a database is only ever moved forward.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export function migrations(backend: 'sqlite' | 'postgres'): Migration[] {
  const dir = path.join(DIR, backend);
  return readdirSync(dir)
    .filter((f) => /^\d+-[a-z0-9-]+\.sql$/.test(f))
    .map((f) => ({
      version: Number.parseInt(f, 10),
      name: f.replace(/\.sql$/, ''),
      sql: readFileSync(path.join(dir, f), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
}
