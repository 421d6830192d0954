// Memory is bounded by bytes, not by a count of bodies (issue 28 §2): 100 concurrent POSTs of
// 4 MiB against a real listenHttp server process with default settings keep its peak RSS
// within the documented bound (about four times maxBufferedBodyBytes, 64 MiB by default) above
// what it used before the load, and every POST gets exactly one answer: 200, 413 or 503.
import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { startHttpServer, stopAllChildren } from "./helpers.js";
import { repoRoot } from "../support/paths.js";
import { procStatus as status, resetPeakRss as resetPeak } from "../support/proc-status.js";
import { join } from "node:path";

afterAll(stopAllChildren);

const MiB = 1024 * 1024;
/** docs/transports.md: bodies being read hold at most maxBufferedBodyBytes (64 MiB), and cost at most about four times that. */
const documentedBound = 4 * 64 * MiB;

/**
 * POSTs `body` on a connection of its own: all but its last byte, then (once `hold` resolves)
 * the last byte. Reports when the first part was taken by the server (`sent`), and resolves
 * with the status and body of the one answer.
 */
function post(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  hold: Promise<void> = Promise.resolve(),
  sent: () => void = () => {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent: false, headers: { ...headers, "content-length": String(body.length) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.write(body.subarray(0, body.length - 1), () => sent());
    void hold.then(() => req.end(body.subarray(body.length - 1)));
  });
}

describe("request bodies in memory (issue 28 §2)", () => {
  it(
    "100 concurrent 4 MiB POSTs keep the server's peak RSS within the documented bound, and each gets one answer",
    { timeout: 180_000 },
    async () => {
      const server = await startHttpServer(join(repoRoot, "test", "e2e", "fixtures", "http-memory-server.ts"));
      const pid = server.child.pid!;
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "server/discover",
      };
      const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      };
      const small = Buffer.from(
        JSON.stringify({ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: meta } }),
      );
      // Warm up (the first requests load code), then take the baseline.
      for (let i = 0; i < 5; i++) expect((await post(server.url, small, headers)).status).toBe(200);
      const baseline = status(pid, "VmRSS");
      const peakBefore = resetPeak(pid) ? status(pid, "VmHWM") : status(pid, "VmHWM");
      // Just under the default maxBodyBytes (4 MiB): every body is acceptable on its own.
      const envelope = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "server/discover",
        params: { _meta: { ...meta, pad: "" } },
      });
      const big = Buffer.from(envelope.replace('"pad":""', `"pad":"${"x".repeat(4 * MiB - envelope.length - 16)}"`));
      expect(big.length).toBeLessThan(4 * MiB);

      // Every body is sent but for its last byte before any is finished: all 100 are in flight at once.
      let release!: () => void;
      const hold = new Promise<void>((resolve) => (release = resolve));
      let sent = 0;
      const answers = Promise.all(
        Array.from({ length: 100 }, () => post(server.url, big, headers, hold, () => ++sent === 100 && release())),
      );
      const answered = await answers;

      const statuses = answered.map((a) => a.status);
      for (const answer of answered) {
        expect([200, 413, 503]).toContain(answer.status);
        // Every answer is one JSON-RPC message (a result, or the refusal's error).
        expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0" });
      }
      for (const answer of answered.filter((a) => a.status === 503)) {
        expect(JSON.parse(answer.body)).toMatchObject({ id: null, error: { code: -32000 } });
      }
      const peak = status(pid, "VmHWM");
      const grown = peak - Math.max(baseline, peakBefore);
      console.log(
        `baseline ${(baseline / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB (+${(grown / MiB).toFixed(0)}), statuses ${JSON.stringify(countBy(statuses))}`,
      );
      expect(grown).toBeLessThan(documentedBound);
      // Some bodies are read (the bound is not bought by refusing everything).
      expect(statuses).toContain(200);
      // The server still answers.
      expect((await post(server.url, small, headers)).status).toBe(200);
    },
  );
});

function countBy(values: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
