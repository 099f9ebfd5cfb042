// `npm run bench [-- name...]`: every figure of issue 12's table in one run, in the table's order (or only the
// named benches), after the machine's gauges. Each bench/*.bench.ts prints its own figures; one not listed here
// runs after these. Each runs in a process of its own, as it runs alone: V8 fits the code of a function to what
// it has been given, and code that several benches share (canonical JSON, the evaluator, the probes) would carry
// what the earlier ones gave it into the later ones' figures. Canonical JSON once measured twice as slow after a
// ruleset load had passed it other strings (src/lib/canonical-json.ts).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The issue's table, row by row: the bench that prints each figure. */
const TABLE: { bench: string; figure: string }[] = [
  { bench: 'service', figure: 'cached Quick Scan against a bare Koa HTTPS route (goal >= 70 %)' },
  { bench: 'evaluate', figure: 'one full evaluation of the catalogue (goal <= 100 us)' },
  { bench: 'signing', figure: 'one Ed25519 signature, node:crypto against @noble/ed25519' },
  { bench: 'memory', figure: 'service RSS with 100 concurrent Full Validations (goal < 300 MB)' },
  { bench: 'health', figure: '/healthz latency while 200 Quick Scans run (goal p99 < 100 ms)' },
  // Written by the "reuse" work (issue 12 item 4): wall time against the critical path at 0, 50, 150 ms RTT.
  {
    bench: 'critical-path',
    figure: 'Quick Scan and Full Validation wall time against their critical path (goal <= 1.3x)',
  },
  { bench: 'cold-start', figure: '`dvs scan good.test` as a whole process (goal <= 0.5 s), service ready (<= 1 s)' },
];

// Words name benches; options (`--count 1000`, `--count=1000`) are handed to every bench that runs.
const args = process.argv.slice(2).filter((a) => a !== '--');
const wanted: string[] = [];
const passed: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (!arg.startsWith('--')) wanted.push(arg);
  else if (arg.includes('=') || args[i + 1] === undefined) passed.push(arg);
  else passed.push(arg, args[++i]!);
}
const present = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''));
/** Printed first: the gauges of the machine, to read every figure after them against. */
const FIRST = 'machine';
const order = [
  FIRST,
  ...TABLE.map((t) => t.bench),
  ...present.filter((b) => b !== FIRST && !TABLE.some((t) => t.bench === b)).sort(),
];
// The benches that start `dvs` processes (fleet, cold start, the Observatory's comparison) run dist/: built from
// this tree unless it already is, as the test suite's global setup does. An idle fleet run once measured the
// session's first build because the sources had moved on since.
execFileSync(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'build.js'), '--if-changed'], {
  stdio: 'inherit',
});
for (const name of order.filter((b) => wanted.length === 0 || wanted.some((w) => b.startsWith(w)))) {
  const row = TABLE.find((t) => t.bench === name);
  console.log(`\n## ${name}${row ? `: ${row.figure}` : ''}\n`);
  const file = path.join(import.meta.dirname, `${name}.bench.ts`);
  if (!existsSync(file)) {
    console.log(`(bench/${name}.bench.ts is not in this tree)`);
    continue;
  }
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'run-one.ts'), file, ...passed],
    {
      stdio: 'inherit',
    },
  );
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) {
    console.log(`\n(bench/${name}.bench.ts failed: exit ${code})`);
    process.exitCode = 1;
  }
}
