// `npm run bench [-- name...]`: runs each bench/*.bench.ts in turn (or the named ones); each prints its figures.
import { readdirSync } from 'node:fs';
import path from 'node:path';

const wanted = process.argv.slice(2).filter((a) => a !== '--');
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
for (const file of files) {
  console.log(`\n## ${file.replace(/\.bench\.ts$/, '')}\n`);
  const mod = (await import(path.join(import.meta.dirname, file))) as { default: () => Promise<void> };
  await mod.default();
}
