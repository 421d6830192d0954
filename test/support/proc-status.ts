// Memory figures of a running process from Linux's /proc/<pid>/status: its resident set now
// (VmRSS) and at its peak (VmHWM), and a reset of that peak. Used by test/e2e/http-memory.test.ts
// and the fuzz job's hostile-network phase (fuzz/hostile-network.ts).
import { readFileSync, writeFileSync } from "node:fs";

/** A line of /proc/<pid>/status, in bytes. */
export function procStatus(pid: number, field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/** Resets the process's peak RSS to its current RSS (Linux 4.0+: write 5 to clear_refs); false where that is not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}
