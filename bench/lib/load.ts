// The load loop: keeps `concurrency` requests in flight for a while, timing each one and
// checking every response.
import type { Call } from "../workload/requests.js";
import type { Connection } from "./connection.js";
import { percentile, Samples } from "./stats.js";

export interface LoadOptions {
  readonly concurrency: number;
  readonly durationMs: number;
  /** The seq-th call to send. */
  readonly next: (seq: number) => Call;
}

export interface LoadResult {
  readonly completed: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly elapsedMs: number;
  /** Completed requests per second. */
  readonly throughput: number;
  /** Latency percentiles, milliseconds. */
  readonly p50: number;
  readonly p99: number;
}

export async function runLoad(connection: Connection, options: LoadOptions): Promise<LoadResult> {
  const samples = new Samples();
  let seq = 0;
  let errors = 0;
  let firstError: string | undefined;
  let broken = false;
  const start = performance.now();
  const deadline = start + options.durationMs;

  const worker = async () => {
    while (!broken && performance.now() < deadline) {
      const call = options.next(seq++);
      const sent = performance.now();
      let response: unknown;
      try {
        response = await connection.request(call);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
        broken = true; // a transport failure: stop rather than spin
        return;
      }
      samples.push(performance.now() - sent);
      const problem = call.check(response);
      if (problem !== undefined) {
        errors++;
        firstError ??= problem;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsedMs = performance.now() - start;
  const latencies = samples.values();
  return {
    completed: samples.length,
    errors,
    firstError,
    elapsedMs,
    throughput: (samples.length * 1000) / elapsedMs,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}
