// The command line every benchmark server takes:
//   --transport stdio|http   (default stdio)
//   --port N                 HTTP port, 0 = any free one (default 0)
//   --workload basic|catalog basic = echo + add; catalog = the 200-tool catalog (default basic)
// An HTTP server announces `<name>: serving MCP at <url>` on stderr once it listens;
// stdout stays for the protocol whatever the transport.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServerArgs {
  readonly transport: "stdio" | "http";
  readonly port: number;
  readonly workload: "basic" | "catalog";
  /** Extra flags a particular server understands (e.g. --page-size for mcp-gen). */
  readonly extra: ReadonlyMap<string, string>;
}

function die(name: string, message: string): never {
  process.stderr.write(`${name}: ${message}\n`);
  process.exit(2);
}

export function parseServerArgs(name: string, argv: readonly string[] = process.argv.slice(2)): ServerArgs {
  let transport: ServerArgs["transport"] = "stdio";
  let port = 0;
  let workload: ServerArgs["workload"] = "basic";
  const extra = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (!flag.startsWith("--")) die(name, `unexpected argument ${flag}`);
    if (value === undefined || value.startsWith("--")) die(name, `${flag} needs a value`);
    i++;
    if (flag === "--transport") {
      if (value !== "stdio" && value !== "http") die(name, `--transport is stdio or http, got ${value}`);
      transport = value;
    } else if (flag === "--port") {
      port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) die(name, `--port needs a port number, got ${value}`);
    } else if (flag === "--workload") {
      if (value !== "basic" && value !== "catalog") die(name, `--workload is basic or catalog, got ${value}`);
      workload = value;
    } else extra.set(flag.slice(2), value);
  }
  return { transport, port, workload, extra };
}

/** Listens on 127.0.0.1 and announces the endpoint on stderr. */
export function listen(name: string, server: Server, port: number): Promise<string> {
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      announce(name, url);
      resolve(url);
    });
  });
}

export function announce(name: string, url: string): void {
  process.stderr.write(`${name}: serving MCP at ${url}\n`);
}

/** Reads a request body as text. */
export function readBody(req: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")),
    );
    req.on("error", reject);
  });
}
