// One bench file in this process (bench/run.ts starts one such process per bench): its default export, run
// with the options given after the file.
const file = process.argv[2];
if (!file) throw new Error('usage: run-one.ts <bench file>');
const bench = (await import(file)) as { default: (args: readonly string[]) => Promise<void> };
await bench.default(process.argv.slice(3));
