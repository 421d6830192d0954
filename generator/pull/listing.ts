// Connects to a live MCP server with the project's own client (either era: server/discover,
// falling back to initialize) and reads everything a client manifest describes.
import { connectSession, httpChannel, type ClientChannel, type JsonObject } from "@mcp-gen/runtime";
import { stdioChannel } from "@mcp-gen/runtime/node";

/** Where the server is: a command to spawn (its stdio) or a Streamable HTTP endpoint. */
export type PullSource = { readonly stdio: string } | { readonly url: string };

export interface PullLimits {
  /** Per request, milliseconds. */
  readonly timeoutMs: number;
  /** Pages read of one list before giving up (a server that never stops paging). */
  readonly maxPages: number;
  /** Items read of one list before giving up. */
  readonly maxItems: number;
}

export const defaultLimits: PullLimits = { timeoutMs: 30_000, maxPages: 1_000, maxItems: 10_000 };

/** What the server said about itself and listed. */
export interface ServerListing {
  readonly era: "modern" | "legacy";
  readonly revision: string;
  readonly info:
    | { readonly name?: unknown; readonly version?: unknown; readonly title?: unknown; readonly [key: string]: unknown }
    | undefined;
  readonly instructions: string | undefined;
  readonly tools: readonly JsonObject[];
  readonly resources: readonly JsonObject[];
  readonly resourceTemplates: readonly JsonObject[];
  readonly prompts: readonly JsonObject[];
}

export class PullError extends Error {}

/**
 * Splits a command line into words: whitespace separates, single and double quotes group,
 * a backslash escapes the next character outside single quotes. No shell is involved.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i]!;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i]!;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (quote !== undefined) throw new PullError(`unterminated ${quote} quote in --stdio command: ${line}`);
  if (word !== undefined) words.push(word);
  return words;
}

function channelFor(source: PullSource): ClientChannel {
  if ("url" in source) {
    let url: URL;
    try {
      url = new URL(source.url);
    } catch {
      throw new PullError(`--url ${source.url} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new PullError(`--url ${source.url}: only http: and https: are supported`);
    return httpChannel(url);
  }
  const [command, ...args] = splitCommand(source.stdio);
  if (command === undefined) throw new PullError("--stdio needs a command");
  return stdioChannel({ command, args, stderr: "ignore" });
}

/** Reads one list page by page, bounded by `limits`. */
async function listAll(
  send: (method: string, params: JsonObject) => Promise<JsonObject>,
  method: string,
  key: string,
  limits: PullLimits,
  onProgress: (what: string) => void,
): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= limits.maxPages) throw new PullError(`${method}: more than ${limits.maxPages} pages; stopped`);
    const result = await send(method, cursor === undefined ? {} : { cursor });
    const list = result[key];
    if (list !== undefined && !Array.isArray(list)) throw new PullError(`${method}: "${key}" is not an array`);
    for (const item of list ?? []) {
      if (typeof item !== "object" || item === null || Array.isArray(item))
        throw new PullError(`${method}: an item of "${key}" is not an object`);
      items.push(item as JsonObject);
    }
    if (items.length > limits.maxItems) throw new PullError(`${method}: more than ${limits.maxItems} items; stopped`);
    onProgress(`${method}: ${items.length} ${key} so far (page ${page + 1})`);
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (cursor === undefined) return items;
    if (seen.has(cursor)) throw new PullError(`${method}: the server repeated cursor ${JSON.stringify(cursor)}`);
    seen.add(cursor);
  }
}

/** Connects, reads the server's description and its four lists, and closes the connection; `onProgress` hears of every page. */
export async function readServer(
  source: PullSource,
  revisions: readonly string[],
  limits: PullLimits = defaultLimits,
  onProgress: (what: string) => void = () => {},
): Promise<ServerListing> {
  onProgress("connecting");
  const channel = channelFor(source);
  let session;
  try {
    session = await connectSession(channel, {
      revisions,
      info: { name: "mcp-gen-pull", version: "1" },
      // What a generated client can answer with its `requests` handlers: servers that offer some
      // tools only to clients able to serve them (roots, sampling, elicitation) list those too.
      capabilities: { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } },
      // Pull calls no tool, so only a server's own roots/list (some ask at once) can come: none.
      requests: { "roots/list": () => ({ roots: [] }) },
      timeoutMs: limits.timeoutMs,
      probeTimeoutMs: Math.min(5_000, limits.timeoutMs),
    });
  } catch (error) {
    await channel.close().catch(() => {});
    throw new PullError(`could not connect: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const server = session.server;
    const capabilities = server.capabilities;
    const send = (method: string, params: JsonObject) =>
      session.rawRequest(method, params, { timeoutMs: limits.timeoutMs }) as Promise<JsonObject>;
    // Lists the server has no capability for are not asked for (it would answer -32601).
    const list = (capability: string, method: string, key: string) =>
      capabilities[capability] === undefined ? Promise.resolve([]) : listAll(send, method, key, limits, onProgress);
    const tools = await list("tools", "tools/list", "tools");
    const resources = await list("resources", "resources/list", "resources");
    const resourceTemplates = await list("resources", "resources/templates/list", "resourceTemplates");
    const prompts = await list("prompts", "prompts/list", "prompts");
    return {
      era: server.era,
      revision: server.revision,
      info: server.info as ServerListing["info"],
      instructions: server.instructions,
      tools,
      resources,
      resourceTemplates,
      prompts,
    };
  } catch (error) {
    if (error instanceof PullError) throw error;
    throw new PullError(error instanceof Error ? error.message : String(error));
  } finally {
    await session.close().catch(() => {});
  }
}
