// Gauges of the machine the figures are measured on, printed before them: the same fixed work timed the same way
// at every run, so that runs on different days (a shared machine's speed has moved by two to three times between
// sessions) can be read side by side. Process start (with the environment's NODE_EXTRA_CA_CERTS, which Node reads
// before it runs any code, and without), pure JavaScript, and first touches of fresh memory.
import { execFileSync } from 'node:child_process';
import { median } from './median.ts';

/** The median of `n` timings of `run`, in milliseconds. */
function medianTime(n: number, run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Sorts 200,000 pseudo-random numbers (a fixed sequence) and round-trips them through JSON. */
function fixedWork(): void {
  let x = 1;
  const values = Array.from({ length: 200_000 }, () => (x = (x * 48_271) % 2_147_483_647));
  values.sort((a, b) => a - b);
  JSON.parse(JSON.stringify(values));
}

export default async function bench(): Promise<void> {
  const start = (env: NodeJS.ProcessEnv) => () => execFileSync(process.execPath, ['-e', '0'], { env });
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  const withoutExtraCa = { ...process.env };
  delete withoutExtraCa.NODE_EXTRA_CA_CERTS;
  for (let i = 0; i < 3; i++) fixedWork();
  console.log('| gauge | value |\n|---|---|');
  console.log(
    `| \`node -e 0\` as a process (median of 7)${extraCa ? `, NODE_EXTRA_CA_CERTS=${extraCa} as the environment sets it` : ''} | ${medianTime(7, start(process.env)).toFixed(0)} ms |`,
  );
  if (extraCa)
    console.log(`| the same without NODE_EXTRA_CA_CERTS | ${medianTime(7, start(withoutExtraCa)).toFixed(0)} ms |`);
  console.log(
    `| fixed JavaScript work: sort 200,000 numbers, JSON round trip (median of 7) | ${medianTime(7, fixedWork).toFixed(0)} ms |`,
  );
  console.log(
    `| first touch of 64 MiB of fresh memory (median of 7) | ${medianTime(7, () => Buffer.allocUnsafeSlow(64 << 20).fill(1)).toFixed(0)} ms |`,
  );
}
