// One measurement each: start the server, drive it, read its CPU time and peak RSS from
// /proc, stop it. Every response is checked; problems are returned, never hidden.
import { catalogReply, catalogTools } from "../workload/catalog.js";
import {
  addCall,
  catalogCall,
  echoCall,
  expectedCatalogTools,
  invalidCall,
  mixedCall,
  toolsListCall,
  type Call,
  type Era,
} from "../workload/requests.js";
import type { Connection } from "./connection.js";
import { httpConnection, type HttpClientKind } from "./http-driver.js";
import { runLoad, type LoadResult } from "./load.js";
import { announcedUrl, cpuMicros, peakRss, spawnNode, type ServerProcess } from "./proc.js";
import { Samples, percentile } from "./stats.js";
import { StdioConnection } from "./stdio-driver.js";

export type Transport = "stdio" | "http";
export type Workload = "basic" | "catalog";

/** How to start one implementation's server for one workload. */
export interface ServerCommand {
  readonly bundle: string;
  readonly workload: Workload;
  readonly httpEra: Era;
  readonly extraArgs?: readonly string[];
}

const MAX_CONCURRENCY = 64;

/** How long each window lasts, and which HTTP client drives HTTP servers. */
export interface MeasureSettings {
  readonly warmupMs: number;
  readonly c1Ms: number;
  readonly c64Ms: number;
  readonly listMs: number;
  readonly httpClient: HttpClientKind;
}

export interface Session {
  readonly server: ServerProcess;
  readonly connection: Connection;
}

/** Starts the server and connects: the legacy handshake over stdio, nothing over HTTP (stateless). */
export async function startSession(
  command: ServerCommand,
  transport: Transport,
  httpClient: HttpClientKind,
): Promise<Session> {
  const server = spawnNode([
    command.bundle,
    "--transport",
    transport,
    "--workload",
    command.workload,
    ...(command.extraArgs ?? []),
  ]);
  try {
    if (transport === "stdio") {
      const connection = new StdioConnection(server);
      await connection.initialize();
      return { server, connection };
    }
    const url = await announcedUrl(server);
    return { server, connection: httpConnection(httpClient, url, command.httpEra, MAX_CONCURRENCY) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function endSession(session: Session): Promise<void> {
  await session.connection.close();
  await session.server.stop();
}

async function expect(connection: Connection, call: Call, what: string): Promise<void> {
  const problem = call.check(await connection.request(call));
  if (problem !== undefined) throw new Error(`${what}: ${problem}`);
}

/** Every kind of request the measures send, answered correctly — or an Error saying what is wrong. */
export async function sanityCheck(
  command: ServerCommand,
  transport: Transport,
  settings: MeasureSettings,
): Promise<void> {
  const session = await startSession(command, transport, settings.httpClient);
  try {
    const { connection } = session;
    if (command.workload === "basic") {
      await expect(connection, echoCall(7), "echo");
      await expect(connection, addCall(7), "add");
      await expect(connection, invalidCall("echo", { text: 7 }), "echo with a number for text");
      await expect(connection, invalidCall("add", { a: 1 }), "add without b");
      await expect(connection, invalidCall("echo", { text: "x", extra: true }), "echo with an unknown argument");
    } else {
      const tools = await listAll(connection);
      if (tools !== expectedCatalogTools)
        throw new Error(`tools/list: ${tools} tools, expected ${expectedCatalogTools}`);
      for (const tool of catalogTools().filter((_, i) => i % 37 === 0)) {
        await expect(
          connection,
          catalogCall(tool.name, tool.validArgs, catalogReply),
          `${tool.name} with valid arguments`,
        );
        await expect(connection, invalidCall(tool.name, tool.invalidArgs), `${tool.name} with invalid arguments`);
      }
    }
  } finally {
    await endSession(session);
  }
}

export interface LoadWindow extends LoadResult {
  /** Server CPU time (user + system, all threads) per completed request, microseconds. */
  readonly cpuPerRequest: number;
  /** The driver's own CPU time per request (this process), microseconds: near 1e6 / throughput, the driver is the limit. */
  readonly driverCpuPerRequest: number;
}

async function measuredLoad(session: Session, concurrency: number, durationMs: number): Promise<LoadWindow> {
  const before = cpuMicros(session.server.pid);
  const driverBefore = process.cpuUsage();
  const result = await runLoad(session.connection, { concurrency, durationMs, next: mixedCall });
  const cpu = cpuMicros(session.server.pid) - before;
  const driver = process.cpuUsage(driverBefore);
  return {
    ...result,
    cpuPerRequest: cpu / result.completed,
    driverCpuPerRequest: (driver.user + driver.system) / result.completed,
  };
}

export interface ThroughputResult {
  readonly c1: LoadWindow;
  readonly c64: LoadWindow;
  /** Peak RSS of the server after both windows, bytes. */
  readonly peakRss: number;
}

/** tools/call (echo and add alternately) at concurrency 1 and 64 after a warm-up. */
export async function measureThroughput(
  command: ServerCommand,
  transport: Transport,
  durations: MeasureSettings,
): Promise<ThroughputResult> {
  const session = await startSession(command, transport, durations.httpClient);
  try {
    await runLoad(session.connection, {
      concurrency: MAX_CONCURRENCY,
      durationMs: durations.warmupMs,
      next: mixedCall,
    });
    const c1 = await measuredLoad(session, 1, durations.c1Ms);
    const c64 = await measuredLoad(session, MAX_CONCURRENCY, durations.c64Ms);
    return { c1, c64, peakRss: peakRss(session.server.pid) };
  } finally {
    await endSession(session);
  }
}

/** Spawn → response to the first initialize over stdio, milliseconds. */
export async function measureColdStart(command: ServerCommand): Promise<number> {
  const start = performance.now();
  const server = spawnNode([
    command.bundle,
    "--transport",
    "stdio",
    "--workload",
    command.workload,
    ...(command.extraArgs ?? []),
  ]);
  const connection = new StdioConnection(server);
  try {
    await connection.initialize();
    return performance.now() - start;
  } finally {
    await connection.close();
  }
}

/** Fetches the whole tool list (following nextCursor); returns the number of tools. */
async function listAll(connection: Connection): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  let pages = 0;
  do {
    let next: string | undefined;
    const call = toolsListCall(cursor, (tools, nextCursor) => {
      total += tools;
      next = nextCursor;
    });
    const problem = call.check(await connection.request(call));
    if (problem !== undefined) throw new Error(`tools/list: ${problem}`);
    cursor = next;
  } while (cursor !== undefined && ++pages < 100);
  return total;
}

export interface ListResult {
  readonly p50: number;
  readonly p99: number;
  readonly listings: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly peakRss: number;
}

/** The complete tools/list of the catalog, one listing at a time, milliseconds per listing. */
export async function measureList(
  command: ServerCommand,
  transport: Transport,
  durations: MeasureSettings,
): Promise<ListResult> {
  const session = await startSession(command, transport, durations.httpClient);
  try {
    const { connection } = session;
    const samples = new Samples();
    let errors = 0;
    let firstError: string | undefined;
    for (const [durationMs, record] of [
      [durations.warmupMs, false],
      [durations.listMs, true],
    ] as const) {
      const deadline = performance.now() + durationMs;
      do {
        const start = performance.now();
        try {
          const tools = await listAll(connection);
          if (tools !== expectedCatalogTools) throw new Error(`${tools} tools, expected ${expectedCatalogTools}`);
        } catch (error) {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
          if (errors > 10) break;
          continue;
        }
        if (record) samples.push(performance.now() - start);
      } while (performance.now() < deadline);
    }
    const values = samples.values();
    return {
      p50: percentile(values, 50),
      p99: percentile(values, 99),
      listings: samples.length,
      errors,
      firstError,
      peakRss: peakRss(session.server.pid),
    };
  } finally {
    await endSession(session);
  }
}
