// How parallel a scan is: wall time of a full scan of the fixture internet's good site against the sum of its
// probes' own times (a ratio near 1 would mean the probes ran one after another); and the CPU one scan costs
// this process (the world's servers included, as they run here too), from which scans per core follow.
import { worldScanner } from '../test/golden/scan-world.ts';

export default async function bench(): Promise<void> {
  const ws = await worldScanner();
  try {
    await ws.scan('good.test', 'full');
    const rows: string[] = [];
    for (const tier of ['quick', 'full'] as const) {
      const runs = 5;
      let wall = 0;
      let sum = 0;
      const cpu0 = process.cpuUsage();
      const perProbe = new Map<string, number>();
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const { observations } = await ws.scan('good.test', tier);
        wall += performance.now() - t0;
        for (const [name, run] of Object.entries(observations.probes)) {
          sum += run.ms;
          perProbe.set(name, (perProbe.get(name) ?? 0) + run.ms);
        }
      }
      const used = process.cpuUsage(cpu0);
      const cpuMs = (used.user + used.system) / 1000 / runs;
      const probes = [...perProbe].map(([n, ms]) => `${n} ${(ms / runs).toFixed(0)}`).join(', ');
      rows.push(
        `| ${tier} | ${(wall / runs).toFixed(0)} ms | ${cpuMs.toFixed(0)} ms | ${(1000 / cpuMs).toFixed(0)} | ${(sum / runs).toFixed(0)} ms | ${(sum / wall).toFixed(2)}x | ${probes} |`,
      );
    }
    console.log(
      '| tier | wall time (mean of 5) | CPU per scan | scans per core-second | sum of probe times | parallelism | per probe (ms) |\n|---|---|---|---|---|---|---|',
    );
    rows.forEach((r) => console.log(r));
  } finally {
    await ws.stop();
  }
}
