// A listener leak (one abort listener per request left on a long-lived signal) makes Node
// print MaxListenersExceededWarning on the server's stderr, where no test would see it: the
// weather example serves 50 requests of each era over stdio and over HTTP, and its stderr
// must stay free of the warning. So must the everything example's, after a reindex of more
// than ten notes: its handler sleeps once per note on the request's signal, and each sleep
// left its abort listener there (the warning the outside fuzz run of issue 28 saw in every
// server it ran). (Leaks in the test process itself fail through
// test/support/no-listener-leaks.ts.)
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, tsxCommand, weatherMain } from "./helpers.js";
import { httpClient, legacyRevision, modernMeta, stdioClient, type RawClient } from "./raw-mcp.js";

const REQUESTS = 50;
const initialize = {
  protocolVersion: legacyRevision,
  capabilities: {},
  clientInfo: { name: "leaks", version: "1.0.0" },
};

/** 50 tool calls and 50 list requests, in sequence, of the given era. */
async function exercise(client: RawClient, modern: boolean): Promise<void> {
  const meta = modern ? { _meta: modernMeta(false) } : {};
  for (let i = 0; i < REQUESTS; i++) {
    const call = await client.request("tools/call", { name: "get_forecast", arguments: { city: "Paris" }, ...meta });
    expect(call.error).toBeUndefined();
    const list = await client.request("resources/list", meta);
    expect(list.error).toBeUndefined();
  }
}

/** Adds twelve notes (with the two seeded, fourteen), then reindexes them with no pause. */
async function reindexMany(client: RawClient, modern: boolean): Promise<void> {
  const meta = modern ? { _meta: modernMeta(false) } : {};
  for (let i = 0; i < 12; i++) {
    const added = await client.request("tools/call", {
      name: "add_note",
      arguments: { title: `note ${i}`, body: "text" },
      ...meta,
    });
    expect(added.error).toBeUndefined();
  }
  const reindexed = await client.request("tools/call", { name: "reindex", arguments: { delayMs: 0 }, ...meta });
  expect(reindexed.result?.isError).toBeUndefined();
}

const everythingMain = join(repoRoot, "examples", "everything", "src", "main.ts");

afterAll(stopAllChildren);

describe("no MaxListenersExceededWarning in a served process", () => {
  it("over stdio, both eras", async () => {
    const { command, args, cwd } = tsxCommand(weatherMain);
    const client = stdioClient(command, args, cwd, () => ({}));
    await exercise(client, true);
    expect((await client.request("initialize", initialize)).error).toBeUndefined();
    await exercise(client, false);
    await client.close();
    expect(client.stderr()).not.toContain("MaxListenersExceededWarning");
  });

  it("over Streamable HTTP, both eras", async () => {
    const server = await startHttpServer(weatherMain, "--http", "--port", "0");
    await exercise(
      httpClient(server.url, "modern", () => ({})),
      true,
    );
    const legacy = httpClient(server.url, "legacy", () => ({}));
    expect((await legacy.request("initialize", initialize)).error).toBeUndefined();
    await exercise(legacy, false);
    await server.stop();
    expect(server.stderr()).not.toContain("MaxListenersExceededWarning");
  });

  it("the everything example's reindex of many notes, over stdio and HTTP", async () => {
    const { command, args, cwd } = tsxCommand(everythingMain);
    const client = stdioClient(command, args, cwd, () => ({}));
    await reindexMany(client, true);
    await client.close();
    expect(client.stderr()).not.toContain("MaxListenersExceededWarning");

    const server = await startHttpServer(everythingMain, "--http", "--port", "0");
    const legacy = httpClient(server.url, "legacy", () => ({}));
    expect((await legacy.request("initialize", initialize)).error).toBeUndefined();
    await reindexMany(legacy, false);
    await server.stop();
    expect(server.stderr()).not.toContain("MaxListenersExceededWarning");
  });
});
