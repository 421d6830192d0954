// Request ids past 2^53 come back exactly as the client sent them (JSON.parse would round
// 9007199254740993 to ...992, and the client could not match the answer).
import { describe, expect, it } from "vitest";
import { parseMessage, serializeMessage, type JsonRpcMessage } from "@mcp-gen/runtime";

describe("large integer ids", () => {
  it("are kept digit for digit through parse and serialize, in messages and batches", () => {
    const text = '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping","params":{"id":9007199254740995}}';
    const message = parseMessage(text) as { id: unknown; params: { id: unknown } };
    expect(message.id).toBe(9007199254740993n);
    // Only the envelope's id: a params member named id is the application's business.
    expect(typeof message.params.id).toBe("number");
    const answer = serializeMessage({
      jsonrpc: "2.0",
      id: message.id as bigint,
      result: { ok: true },
    } as unknown as JsonRpcMessage);
    expect(answer).toBe('{"jsonrpc":"2.0","id":9007199254740993,"result":{"ok":true}}');
    const error = serializeMessage({
      jsonrpc: "2.0",
      id: -12345678901234567890n,
      error: { code: -32601, message: "x" },
    } as unknown as JsonRpcMessage);
    expect(error).toBe('{"jsonrpc":"2.0","id":-12345678901234567890,"error":{"code":-32601,"message":"x"}}');
    const batch = parseMessage(
      '[{"jsonrpc":"2.0","method":"id","id":18014398509481985,"params":{"a":[{"id":1}]}},{"jsonrpc":"2.0","id":"9007199254740993","method":"x"}]',
    ) as { id: unknown }[];
    expect(batch.map((m) => m.id)).toEqual([18014398509481985n, "9007199254740993"]);
  });

  it("leave safe integers, strings and non-integers to JSON.parse", () => {
    expect(parseMessage('{"id":42}')).toEqual({ id: 42 });
    expect(parseMessage('{"id":"x"}')).toEqual({ id: "x" });
    expect(parseMessage('{"id":1.5}')).toEqual({ id: 1.5 });
    expect(() => parseMessage("{")).toThrow(SyntaxError);
  });
});

describe("large integer ids over HTTP", () => {
  it("come back exactly, in results and in errors", async () => {
    const { createWebHandler } = await import("@mcp-gen/runtime");
    const { handlers } = await import("../../examples/weather/src/handlers.js");
    const { createWeatherServer } = await import("../../examples/weather/src/mcp/index.js");
    const handler = createWebHandler(createWeatherServer(handlers));
    const post = async (body: string) => {
      const headers = {
        host: "localhost",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "server/discover",
      };
      return (await handler(new Request("http://localhost/mcp", { method: "POST", headers, body }))).text();
    };
    const meta =
      '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
    expect(
      await post(`{"jsonrpc":"2.0","id":9007199254740993,"method":"server/discover","params":{"_meta":${meta}}}`),
    ).toMatch(/^\{"jsonrpc":"2\.0","id":9007199254740993,"result":/);
    expect(
      await post(`{"jsonrpc":"2.0","id":9007199254740995,"method":"server/discover","params":{"_meta":{}}}`),
    ).toMatch(/^\{"jsonrpc":"2\.0","id":9007199254740995,"error":/);
  });
});

describe("large integer ids in batches with other elements", () => {
  it("go back to their own element whatever comes before it (the fuzz job's case)", () => {
    const batch = parseMessage(
      '[1,"x",[{"id":1}],{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"}]',
    ) as unknown[];
    expect((batch[3] as { id: unknown }).id).toBe(5);
    expect((batch[4] as { id: unknown }).id).toBe(9007199254740993n);
    expect((batch[5] as { id: unknown }).id).toBe(6);
  });

  it("never take a string in an array for a key, and always end", () => {
    const batch = parseMessage('[{"jsonrpc":"2.0","id":9007199254740995,"method":"ping"},["a","id"]]') as unknown[];
    expect((batch[0] as { id: unknown }).id).toBe(9007199254740995n);
    expect(batch[1]).toEqual(["a", "id"]);
  });
});

describe("large integer ids reaching a client (issue 28 §5)", () => {
  it("a server process's request over stdio keeps its id, and the answer echoes it digit for digit", async () => {
    const { stdioChannel } = await import("@mcp-gen/runtime/node");
    // A server that asks the client a ping with an id past 2^53, then reports the answer on stderr.
    const script = `process.stdout.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\\n');
      process.stdin.setEncoding("utf8");
      let text = "";
      process.stdin.on("data", (chunk) => { text += chunk; if (text.includes("\\n")) { process.stderr.write(text); process.exit(0); } });`;
    const channel = stdioChannel({ command: process.execPath, args: ["-e", script], stderr: "pipe" });
    let stderr = "";
    const received = new Promise<unknown>((resolve, reject) => {
      void channel
        .start({
          receive: resolve,
          fail: () => {},
          closed: (error?: Error) => (error ? reject(error) : undefined),
        })
        .then(() => channel.process!.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8"))));
    });
    const request = (await received) as { id: unknown };
    expect(request.id).toBe(9007199254740993n);
    const exited = new Promise((resolve) => channel.process!.once("exit", resolve));
    channel.send({ jsonrpc: "2.0", id: request.id, result: {} } as unknown as JsonRpcMessage);
    await exited;
    expect(stderr).toBe('{"jsonrpc":"2.0","id":9007199254740993,"result":{}}\n');
    await channel.close();
  });

  it("memoryChannel carries such ids digit for digit", async () => {
    const { memoryChannel } = await import("@mcp-gen/runtime");
    const { handlers } = await import("../../examples/weather/src/handlers.js");
    const { createWeatherServer } = await import("../../examples/weather/src/mcp/index.js");
    const channel = memoryChannel(createWeatherServer(handlers));
    const received: unknown[] = [];
    await channel.start({ receive: (value: unknown) => received.push(value), fail: () => {}, closed: () => {} });
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    channel.send({
      jsonrpc: "2.0",
      id: 9007199254740993n,
      method: "server/discover",
      params: { _meta: meta },
    } as unknown as JsonRpcMessage);
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((received[0] as { id: unknown }).id).toBe(9007199254740993n);
    await channel.close();
  });
});

describe("large integer ids in notifications/cancelled (issue 28 §5)", () => {
  it("params.requestId is kept digit for digit, alone and in a batch; other params members are not", () => {
    const cancel = parseMessage(
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"x","requestId":9007199254740993,"n":9007199254740995}}',
    ) as { params: Record<string, unknown> };
    expect(cancel.params.requestId).toBe(9007199254740993n);
    expect(typeof cancel.params.n).toBe("number");
    const batch = parseMessage(
      '[{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":{"requestId":9007199254740995}}},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":-9007199254740997}}]',
    ) as { params: Record<string, unknown> }[];
    expect(typeof (batch[0]!.params.a as { requestId: unknown }).requestId).toBe("number");
    expect(batch[1]!.params.requestId).toBe(-9007199254740997n);
  });

  it("a client over stdio cancels exactly the server's request it names, and answers the other digit for digit", async () => {
    const { stdioChannel } = await import("@mcp-gen/runtime/node");
    const { connectSession } = await import("@mcp-gen/runtime");
    // A server that asks roots/list twice (ids ...992 and ...993), cancels ...993, and after a
    // while reports on stderr every line the client wrote after initialization.
    const script = `const out = (s) => process.stdout.write(s + "\\n");
      const seen = [];
      let text = "";
      process.stdin.setEncoding("utf8");
      process.stdin.on("data", (chunk) => {
        text += chunk;
        let cut;
        while ((cut = text.indexOf("\\n")) >= 0) {
          const line = text.slice(0, cut);
          text = text.slice(cut + 1);
          if (line.includes('"method":"initialize"')) {
            out('{"jsonrpc":"2.0","id":' + JSON.parse(line).id + ',"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}');
          } else if (line.includes("notifications/initialized")) {
            out('{"jsonrpc":"2.0","id":9007199254740992,"method":"roots/list"}');
            out('{"jsonrpc":"2.0","id":9007199254740993,"method":"roots/list"}');
            out('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740993}}');
            setTimeout(() => { process.stderr.write(JSON.stringify(seen)); process.exit(0); }, 1500);
          } else seen.push(line);
        }
      });`;
    const channel = stdioChannel({ command: process.execPath, args: ["-e", script], stderr: "pipe" });
    const aborted: boolean[] = [];
    const session = await connectSession(channel, {
      revisions: ["2025-11-25"],
      requests: {
        "roots/list": async (_params: unknown, signal: AbortSignal) => {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 500);
            signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
          });
          aborted.push(signal.aborted);
          return { roots: [] };
        },
      },
    } as never);
    let stderr = "";
    channel.process!.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    await new Promise((resolve) => channel.process!.once("exit", resolve));
    const written = JSON.parse(stderr) as string[];
    expect(written).toEqual(['{"jsonrpc":"2.0","id":9007199254740992,"result":{"roots":[]}}']);
    expect(aborted.sort()).toEqual([false, true]);
    await session.close();
  });
});
