// Preloaded (node --import) into a generator run by bench/generator.ts: on exit, writes
// the process's own resource usage — peak RSS and CPU time — to $BENCH_RUSAGE_FILE.
// Plain JavaScript so that the measured process loads nothing else.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_RUSAGE_FILE;
if (file) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ maxRssKb: usage.maxRSS, userMicros: usage.userCPUTime, systemMicros: usage.systemCPUTime }),
    );
  });
}
