/**
 * Loaded with `--import` into a bench's child: at exit, prints the CPU its main thread and the
 * whole process used (user + system, ms) on stderr, one line the bench reads (cli-slots.ts).
 * The main thread's is the one an answer waits for; the others' (the file placer, V8's helpers)
 * only count when the cores are busy.
 */
process.on('exit', () => {
  const main = process.threadCpuUsage();
  const all = process.cpuUsage();
  const ms = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
  const out = { main: ms(main), all: ms(all), mainSystem: main.system / 1000 };
  process.stderr.write(`thread-cpu: ${JSON.stringify(out)}\n`);
});
