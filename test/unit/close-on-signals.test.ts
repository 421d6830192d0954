// closeOnSignals with serveStdio's connection: it takes the connection's graceful shutdown
// (with the connection's own deadline) and lets go of the signals once the connection closed.
// SIGUSR2 stands in for SIGTERM/SIGINT: emitting those could reach the test runner's own handlers.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { closeOnSignals, serveStdio } from "@mcp-gen/runtime/node";
import { handlers } from "../../examples/weather/src/handlers.js";
import { createWeatherServer } from "../../examples/weather/src/mcp/index.js";

describe("closeOnSignals(serveStdio(server))", () => {
  it("shuts the connection down gracefully on a signal, and removes its handlers once it is closed", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const connection = serveStdio(createWeatherServer(handlers), { input, output, shutdownTimeoutMs: 1_000 });
    const before = process.listenerCount("SIGUSR2");
    closeOnSignals(connection, { exit: false, signals: ["SIGUSR2"] });
    expect(process.listenerCount("SIGUSR2")).toBe(before + 1);
    process.emit("SIGUSR2", "SIGUSR2");
    await connection.closed;
    // The handlers go once the connection is closed (a microtask after `closed` resolves).
    await new Promise((resolve) => setImmediate(resolve));
    expect(process.listenerCount("SIGUSR2")).toBe(before);
  });

  it("lets go of the signals when the connection closes for another reason (its input ended)", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const connection = serveStdio(createWeatherServer(handlers), { input, output });
    const before = process.listenerCount("SIGUSR2");
    closeOnSignals(connection, { exit: false, signals: ["SIGUSR2"] });
    expect(process.listenerCount("SIGUSR2")).toBe(before + 1);
    input.end();
    await connection.closed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(process.listenerCount("SIGUSR2")).toBe(before);
  });
});
