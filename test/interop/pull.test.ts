// `mcp-gen pull` against live servers: the three official reference servers over stdio
// (@modelcontextprotocol/server-everything, -filesystem, -memory; devDependencies) and our
// everything example over Streamable HTTP. Each pulled manifest must pass mcp-gen itself;
// the generated clients are driven by one small program per server (written below) that calls
// EVERY tool the server listed, with arguments valid for its schema (answering the server's
// roots, sampling and elicitation requests where a tool makes them). The tools called on the
// wire must equal the pulled manifest's, and each result is checked. The programs are
// type-checked strictly, with one deliberately wrong call each that must be rejected (so loose
// `any` types would fail).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "../e2e/helpers.js";
import { runCli, runCliAsync } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const serverEntry = (pkg: string) => join(repoRoot, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
const everythingCommand = `"${process.execPath}" "${serverEntry("server-everything")}" stdio`;

// Inside the repository, so the generated code resolves @mcp-gen/runtime from node_modules.
mkdirSync(join(repoRoot, "test", ".tmp"), { recursive: true });
const work = mkdtempSync(join(repoRoot, "test", ".tmp", "pull-"));
const sandbox = join(work, "files");
mkdirSync(sandbox);
// A 1x1 PNG for the filesystem server's read_media_file.
writeFileSync(
  join(sandbox, "pixel.png"),
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
    "base64",
  ),
);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Pulled {
  readonly name: string;
  readonly manifest: string;
  /** The program that calls every tool through the generated client; exports exercise(). */
  readonly program: string;
}

/** Pulls, generates the client into <work>/<name>/mcp and writes the calling program. */
async function pullAndGenerate(name: string, source: string[], program: string): Promise<Pulled> {
  const dir = join(work, name);
  mkdirSync(dir);
  const manifest = join(dir, "mcp.yaml");
  const pull = await runCliAsync(["pull", ...source, "-o", manifest], repoRoot, {
    MEMORY_FILE_PATH: join(work, "memory.jsonl"),
  });
  expect(pull.stderr).toBe("");
  expect(pull.status).toBe(0);
  expect(pull.stdout).toMatch(/^mcp-gen: wrote .*mcp\.yaml: \d+ tool\(s\)/);
  const generate = runCli([manifest, "-q"]);
  expect(generate.stderr).toBe("");
  expect(generate.status).toBe(0);
  const programFile = join(dir, "calls.ts");
  writeFileSync(programFile, program);
  return { name, manifest, program: programFile };
}

const manifestOf = (pulled: Pulled) =>
  parse(readFileSync(pulled.manifest, "utf8")) as Record<string, Record<string, Record<string, unknown>>>;

// Shared by the programs: a channel wrapper that notes every tools/call sent on the wire, so the
// test compares what was really called with what the server listed.
const recordModule = `import type { ClientChannel } from "@mcp-gen/runtime";

/** What a program did: the tools it called (as sent on the wire) and their results by tool name. */
export interface Exercised {
  readonly called: string[];
  readonly results: Record<string, unknown>;
}

/** Wraps a channel, noting the tool name of every tools/call request that goes out on it. */
export function recordToolCalls(inner: ClientChannel): { channel: ClientChannel; called: Set<string> } {
  const called = new Set<string>();
  const channel: ClientChannel = {
    kind: inner.kind,
    start: (handlers) => inner.start(handlers),
    send(message) {
      if ("method" in message && message.method === "tools/call") called.add(String(message.params?.name));
      inner.send(message);
    },
    setProtocol: (protocol) => inner.setProtocol?.(protocol),
    declareParamHeaders: (tool, headers) => inner.declareParamHeaders?.(tool, headers),
    close: () => inner.close(),
  };
  return { channel, called };
}
`;

// The reference "everything" server: every tool, including those it offers only to clients that
// declare roots, sampling and elicitation (answered here), and its task-only research tool.
const everythingProgram = `import { pathToFileURL } from "node:url";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { recordToolCalls, type Exercised } from "../record.js";
import { connectMcpServersEverythingClient } from "./mcp/index.js";

export async function exercise(command: string, args: string[], root: string): Promise<Exercised> {
  const { channel, called } = recordToolCalls(stdioChannel({ command, args, stderr: "ignore" }));
  const client = await connectMcpServersEverythingClient(channel, {
    timeoutMs: 60_000,
    capabilities: { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } },
    requests: {
      "roots/list": () => ({ roots: [{ uri: pathToFileURL(root).href, name: "sandbox" }] }),
      "sampling/createMessage": (params) => ({
        role: "assistant",
        content: { type: "text", text: "sampled " + String(params.messages.length) + " message(s)" },
        model: "pull-proof",
      }),
      "elicitation/create": (params) => {
        if ("url" in params) return { action: "accept" };
        // The research tool asks which sense of its topic is meant; the demo form asks for a name.
        if ("interpretation" in params.requestedSchema.properties) return { action: "accept", content: { interpretation: "programming" } };
        return { action: "accept", content: { name: "Ada Lovelace", check: true, email: "ada@example.com", integer: 7 } };
      },
    },
  });
  const results: Record<string, unknown> = {};
  try {
    results["echo"] = await client.tools.echo({ message: "pulled" });
    results["get-annotated-message"] = await client.tools.getAnnotatedMessage({ messageType: "success", includeImage: true });
    results["get-env"] = await client.tools.getEnv();
    results["get-resource-links"] = await client.tools.getResourceLinks({ count: 2 });
    results["get-resource-reference"] = await client.tools.getResourceReference({ resourceType: "Text", resourceId: 3 });
    const weather = await client.tools.getStructuredContent({ location: "Chicago" });
    if (weather.isError) throw new Error("get-structured-content failed");
    const temperature: number = weather.structuredContent.temperature;
    results["get-structured-content"] = { ...weather, temperature };
    results["get-sum"] = await client.tools.getSum({ a: 2, b: 3 });
    results["get-tiny-image"] = await client.tools.getTinyImage();
    // A data: URI, so nothing is fetched from the network.
    const data = "data:text/plain;base64," + Buffer.from("compress me").toString("base64");
    results["gzip-file-as-resource"] = await client.tools.gzipFileAsResource({ name: "note.txt.gz", data, outputType: "resource" });
    // Each toggle twice: on, then off again, so that no timer outlives the session.
    results["toggle-simulated-logging"] = [await client.tools.toggleSimulatedLogging(), await client.tools.toggleSimulatedLogging()];
    results["toggle-subscriber-updates"] = [await client.tools.toggleSubscriberUpdates({}), await client.tools.toggleSubscriberUpdates({})];
    const progress: number[] = [];
    const operation = await client.tools.triggerLongRunningOperation({ duration: 0.2, steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    results["trigger-long-running-operation"] = { ...operation, progress };
    results["get-roots-list"] = await client.tools.getRootsList();
    results["trigger-elicitation-request"] = await client.tools.triggerElicitationRequest();
    results["trigger-url-elicitation"] = await client.tools.triggerUrlElicitation({ url: "https://example.com/consent", elicitationId: "pull-proof" });
    results["trigger-sampling-request"] = await client.tools.triggerSamplingRequest({ prompt: "Say hello", maxTokens: 20 });
    // taskSupport: required, so it runs as a task; its mid-task elicitation is answered above.
    const statuses: string[] = [];
    const task = await client.tools.simulateResearchQuery.task({ topic: "python", ambiguous: true });
    const report = await task.wait({ onStatus: (info) => statuses.push(info.status) });
    results["simulate-research-query"] = { ...report, statuses };
    // @ts-expect-error location is one of three cities
    if (false as boolean) await client.tools.getStructuredContent({ location: "Paris" });
    return { called: [...called], results };
  } finally {
    await client.close();
  }
}
`;

// The filesystem server, confined to the sandbox folder the test creates (with pixel.png in it).
const filesystemProgram = `import { stdioChannel } from "@mcp-gen/runtime/node";
import { recordToolCalls, type Exercised } from "../record.js";
import { connectSecureFilesystemClient } from "./mcp/index.js";

export async function exercise(command: string, args: string[], root: string): Promise<Exercised> {
  const { channel, called } = recordToolCalls(stdioChannel({ command, args, stderr: "ignore" }));
  const client = await connectSecureFilesystemClient(channel, { timeoutMs: 60_000 });
  const at = (name: string) => root + "/" + name;
  const results: Record<string, unknown> = {};
  try {
    results["list_allowed_directories"] = await client.tools.listAllowedDirectories();
    results["create_directory"] = await client.tools.createDirectory({ path: at("docs") });
    results["write_file"] = await client.tools.writeFile({ path: at("docs/note.txt"), content: "first line\\nsecond line\\n" });
    results["edit_file"] = await client.tools.editFile({ path: at("docs/note.txt"), edits: [{ oldText: "second line", newText: "edited line" }] });
    const head = await client.tools.readTextFile({ path: at("docs/note.txt"), head: 1 });
    if (head.isError) throw new Error("read_text_file failed");
    const firstLine: string = head.structuredContent.content;
    results["read_text_file"] = { ...head, firstLine };
    results["read_file"] = await client.tools.readFile({ path: at("docs/note.txt") });
    results["read_multiple_files"] = await client.tools.readMultipleFiles({ paths: [at("docs/note.txt"), at("missing.txt")] });
    const media = await client.tools.readMediaFile({ path: at("pixel.png") });
    if (media.isError) throw new Error("read_media_file failed");
    const kind: string | undefined = media.structuredContent.content[0]?.type;
    results["read_media_file"] = { ...media, kind };
    results["move_file"] = await client.tools.moveFile({ source: at("docs/note.txt"), destination: at("docs/moved.txt") });
    results["list_directory"] = await client.tools.listDirectory({ path: at("docs") });
    results["list_directory_with_sizes"] = await client.tools.listDirectoryWithSizes({ path: root, sortBy: "size" });
    results["directory_tree"] = await client.tools.directoryTree({ path: root, excludePatterns: ["*.png"] });
    results["search_files"] = await client.tools.searchFiles({ path: root, pattern: "**/*.txt" });
    results["get_file_info"] = await client.tools.getFileInfo({ path: at("docs/moved.txt") });
    // @ts-expect-error path is required
    if (false as boolean) await client.tools.readTextFile({});
    return { called: [...called], results };
  } finally {
    await client.close();
  }
}
`;

// The knowledge-graph memory server (MEMORY_FILE_PATH points into the temporary folder).
const memoryProgram = `import { stdioChannel } from "@mcp-gen/runtime/node";
import { recordToolCalls, type Exercised } from "../record.js";
import { connectMemoryClient } from "./mcp/index.js";

export async function exercise(command: string, args: string[]): Promise<Exercised> {
  const { channel, called } = recordToolCalls(stdioChannel({ command, args, stderr: "ignore" }));
  const client = await connectMemoryClient(channel, { timeoutMs: 60_000 });
  const relation = { from: "mcp-gen", to: "MCP", relationType: "implements" };
  const results: Record<string, unknown> = {};
  try {
    const created = await client.tools.createEntities({
      entities: [
        { name: "mcp-gen", entityType: "project", observations: ["pulls manifests"] },
        { name: "MCP", entityType: "protocol", observations: [] },
      ],
    });
    if (created.isError) throw new Error("create_entities failed");
    const names: string[] = created.structuredContent.entities.map((entity) => entity.name);
    results["create_entities"] = { ...created, names };
    results["create_relations"] = await client.tools.createRelations({ relations: [relation] });
    results["add_observations"] = await client.tools.addObservations({ observations: [{ entityName: "MCP", contents: ["has revisions", "to be removed"] }] });
    results["search_nodes"] = await client.tools.searchNodes({ query: "pulls" });
    results["open_nodes"] = await client.tools.openNodes({ names: ["MCP"] });
    results["read_graph"] = await client.tools.readGraph();
    results["delete_observations"] = await client.tools.deleteObservations({ deletions: [{ entityName: "MCP", observations: ["to be removed"] }] });
    results["delete_relations"] = await client.tools.deleteRelations({ relations: [relation] });
    results["delete_entities"] = await client.tools.deleteEntities({ entityNames: ["mcp-gen"] });
    const after = await client.tools.readGraph();
    // @ts-expect-error observations are strings
    if (false as boolean) await client.tools.createEntities({ entities: [{ name: "x", entityType: "y", observations: [1] }] });
    return { called: [...called], results: { ...results, graphAfterDeletes: after.structuredContent } };
  } finally {
    await client.close();
  }
}
`;

// Our everything example over Streamable HTTP (2026-07-28): its elicitation, sampling and roots
// tools get their answers through input_required rounds, answered by the same handlers.
const exampleProgram = `import { pathToFileURL } from "node:url";
import { httpChannel } from "@mcp-gen/runtime";
import { recordToolCalls, type Exercised } from "../record.js";
import { connectNotesClient } from "./mcp/index.js";

export async function exercise(url: string, root: string): Promise<Exercised> {
  const { channel, called } = recordToolCalls(httpChannel(url));
  const client = await connectNotesClient(channel, {
    timeoutMs: 60_000,
    capabilities: { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } },
    requests: {
      "roots/list": () => ({ roots: [{ uri: pathToFileURL(root).href, name: "sandbox" }] }),
      "sampling/createMessage": () => ({ role: "assistant", content: { type: "text", text: "a pulled note" }, model: "pull-proof" }),
      "elicitation/create": (params) => ("url" in params ? { action: "accept" } : { action: "accept", content: { confirm: true, reason: "pull proof" } }),
    },
  });
  const results: Record<string, unknown> = {};
  try {
    const added = await client.tools.addNote({ title: "Pulled", body: "over HTTP", tags: ["pull"] });
    if (added.isError) throw new Error("add_note failed");
    const id: string = added.structuredContent.id;
    results["add_note"] = { ...added, id };
    results["get_note"] = await client.tools.getNote({ id });
    // The tag also travels as the Mcp-Param-Tag header (x-mcp-header), which the server checks.
    results["search_notes"] = await client.tools.searchNotes({ query: "pulled", tag: "pull" });
    results["note_media"] = await client.tools.noteMedia({ id });
    const progress: number[] = [];
    const reindexed = await client.tools.reindex({ delayMs: 0 }, { onProgress: (p) => progress.push(p.progress) });
    results["reindex"] = { ...reindexed, progress };
    results["summarize_note"] = await client.tools.summarizeNote({ id });
    results["list_roots"] = await client.tools.listRoots();
    results["connect_calendar"] = await client.tools.connectCalendar();
    results["delete_note"] = await client.tools.deleteNote({ id });
    // @ts-expect-error title is a string
    if (false as boolean) await client.tools.addNote({ title: 1, body: "" });
    return { called: [...called], results: { ...results, revision: client.session.revision } };
  } finally {
    await client.close();
  }
}
`;

function textOf(content: unknown): string {
  return (content as { type: string; text?: string }[]).map((block) => block.text ?? "").join("\n");
}

/** The text of a tool's result, after checking that it is not a tool error. */
function okText(result: unknown): string {
  const { isError, content } = result as { isError?: boolean; content: unknown };
  expect(isError ?? false, JSON.stringify(result)).toBe(false);
  return textOf(content);
}

type Exercise = (...args: (string | string[])[]) => Promise<{ called: string[]; results: Record<string, unknown> }>;

/** Runs a program and checks that it called exactly the tools the pulled manifest lists, each with a result. */
async function exerciseAll(pulled: Pulled, ...args: (string | string[])[]): Promise<Record<string, unknown>> {
  const { exercise } = (await import(pathToFileURL(pulled.program).href)) as { exercise: Exercise };
  const { called, results } = await exercise(...args);
  const listed = Object.keys(manifestOf(pulled).tools!).sort();
  expect(listed.length).toBeGreaterThan(0);
  expect([...called].sort(), `tools called on the wire of ${pulled.name}`).toEqual(listed);
  for (const name of listed) expect(results[name], `result of ${name}`).toBeDefined();
  return results;
}

writeFileSync(join(work, "record.ts"), recordModule);

describe("mcp-gen pull over stdio and HTTP", () => {
  let example: HttpServerProcess;
  const pulled: Pulled[] = [];

  beforeAll(async () => {
    example = await startHttpServer(
      join(repoRoot, "examples", "everything", "src", "main.ts"),
      "--http",
      "--port",
      "0",
    );
    pulled.push(
      ...(await Promise.all([
        pullAndGenerate("everything", ["--stdio", everythingCommand], everythingProgram),
        pullAndGenerate(
          "filesystem",
          ["--stdio", `"${process.execPath}" "${serverEntry("server-filesystem")}" "${sandbox}"`],
          filesystemProgram,
        ),
        pullAndGenerate(
          "memory",
          ["--stdio", `"${process.execPath}" "${serverEntry("server-memory")}"`],
          memoryProgram,
        ),
        pullAndGenerate("example", ["--url", example.url], exampleProgram),
      ])),
    );
  }, 180_000);

  afterAll(async () => {
    await stopAllChildren();
  });

  it("keeps tools' schemas, annotations, icons and titles exactly, with resources, templates and prompts", () => {
    const [everything, , , http] = pulled;
    const hand = parse(readFileSync(join(repoRoot, "test", "interop", "everything", "mcp.yaml"), "utf8")) as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    const got = manifestOf(everything!);
    expect(got.generate).toEqual({ server: false });
    for (const name of [
      "echo",
      "get-sum",
      "get-structured-content",
      "get-annotated-message",
      "get-resource-reference",
    ]) {
      expect(got.tools![name]!.input, name).toEqual(hand.tools![name]!.input);
      expect(got.tools![name]!.output, name).toEqual(hand.tools![name]!.output);
    }
    expect(got.tools!.echo!.annotations).toEqual(hand.tools!.echo!.annotations);
    expect(Object.values(got.resourceTemplates!).map((t) => t.uriTemplate)).toContain(
      "demo://resource/dynamic/text/{resourceId}",
    );
    expect(got.prompts!["args-prompt"]!.arguments).toEqual({
      city: { required: true, description: "Name of the city" },
      state: { required: false },
    });

    const source = parse(readFileSync(join(repoRoot, "examples", "everything", "mcp.yaml"), "utf8")) as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    const overHttp = manifestOf(http!);
    expect(Object.keys(overHttp.tools!)).toEqual(Object.keys(source.tools!));
    const search = overHttp.tools!.search_notes!;
    expect((search.input as { properties: { tag: Record<string, unknown> } }).properties.tag["x-mcp-header"]).toBe(
      "Tag",
    );
    expect(overHttp.tools!.reindex!.icons).toEqual(source.tools!.reindex!.icons);
    expect(overHttp.tools!.add_note!.title).toBe("Add note");
    expect(Object.keys(overHttp.prompts!)).toEqual(Object.keys(source.prompts!));
  });

  it("type-checks the calls strictly, rejecting the wrong ones", () => {
    const errors = typecheck(pulled.map((p) => p.program));
    expect(formatTypeErrors(errors)).toBe("");
  }, 120_000);

  it("lists the tools a server offers only to clients able to answer roots, sampling and elicitation", () => {
    // server-everything registers these after initialize, and only for a client that declared
    // the capability; pull declares what a generated client can answer, so they are pulled too.
    const tools = Object.keys(manifestOf(pulled[0]!).tools!);
    expect(tools).toEqual(
      expect.arrayContaining([
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
        "trigger-url-elicitation",
      ]),
    );
  });

  it("calls every tool of the everything reference server through its generated client", async () => {
    const results = await exerciseAll(
      pulled[0]!,
      process.execPath,
      [serverEntry("server-everything"), "stdio"],
      sandbox,
    );
    expect(okText(results["echo"])).toBe("Echo: pulled");
    expect(okText(results["get-sum"])).toContain("5");
    expect(results["get-annotated-message"]).toMatchObject({
      content: [
        { type: "text", text: "Operation completed successfully" },
        { type: "image", mimeType: "image/png" },
      ],
    });
    expect(Object.keys(JSON.parse(okText(results["get-env"])) as object).length).toBeGreaterThan(0);
    expect(results["get-resource-links"]).toMatchObject({
      content: [{ type: "text" }, { type: "resource_link" }, { type: "resource_link" }],
    });
    expect(results["get-resource-reference"]).toMatchObject({
      content: [
        { type: "text" },
        { type: "resource", resource: { uri: "demo://resource/dynamic/text/3" } },
        { type: "text" },
      ],
    });
    expect(results["get-structured-content"]).toMatchObject({
      structuredContent: { conditions: expect.any(String) },
      temperature: expect.any(Number),
    });
    expect(results["get-tiny-image"]).toMatchObject({
      content: [{ type: "text" }, { type: "image", mimeType: "image/png" }, { type: "text" }],
    });
    const gzipped = results["gzip-file-as-resource"] as { content: { resource: { blob: string; mimeType: string } }[] };
    expect(gzipped.content[0]!.resource.mimeType).toBe("application/gzip");
    expect(gunzipSync(Buffer.from(gzipped.content[0]!.resource.blob, "base64")).toString()).toBe("compress me");
    const [loggingOn, loggingOff] = results["toggle-simulated-logging"] as unknown[];
    expect(okText(loggingOn)).toContain("Started simulated");
    expect(okText(loggingOff)).toContain("Stopped simulated");
    const [updatesOn, updatesOff] = results["toggle-subscriber-updates"] as unknown[];
    expect(okText(updatesOn)).toContain("Started");
    expect(okText(updatesOff)).toContain("Stopped");
    expect(okText(results["trigger-long-running-operation"])).toContain("Long running operation completed");
    expect(results["trigger-long-running-operation"]).toMatchObject({ progress: [1, 2] });
    expect(okText(results["get-roots-list"])).toContain(`URI: ${pathToFileURL(sandbox).href}`);
    expect(okText(results["trigger-elicitation-request"])).toContain("- Name: Ada Lovelace");
    expect(okText(results["trigger-url-elicitation"])).toContain(
      "User completed the URL elicitation flow.\nElicitation ID: pull-proof",
    );
    expect(okText(results["trigger-sampling-request"])).toContain("sampled 1 message(s)");
    expect(okText(results["simulate-research-query"])).toContain("# Research Report: python (programming)");
    expect((results["simulate-research-query"] as { statuses: string[] }).statuses).toEqual(
      expect.arrayContaining(["input_required", "completed"]),
    );
  }, 60_000);

  it("calls every tool of the filesystem server through its generated client", async () => {
    const results = await exerciseAll(
      pulled[1]!,
      process.execPath,
      [serverEntry("server-filesystem"), sandbox],
      sandbox,
    );
    expect(okText(results["list_allowed_directories"])).toContain(sandbox);
    expect(okText(results["create_directory"])).toContain("Successfully created directory");
    expect(okText(results["write_file"])).toContain("Successfully wrote");
    expect(okText(results["edit_file"])).toContain("+edited line");
    expect(results["read_text_file"]).toMatchObject({ firstLine: "first line" });
    expect(okText(results["read_file"])).toBe("first line\nedited line\n");
    // One of the two paths does not exist: the tool reports it in its text and reads the other.
    expect(okText(results["read_multiple_files"])).toMatch(/edited line[\s\S]*missing\.txt: Error/);
    expect(results["read_media_file"]).toMatchObject({
      kind: "image",
      content: [{ type: "image", mimeType: "image/png" }],
    });
    expect(okText(results["move_file"])).toContain("Successfully moved");
    expect(okText(results["list_directory"])).toBe("[FILE] moved.txt");
    expect(okText(results["list_directory_with_sizes"])).toMatch(/\[DIR\] docs[\s\S]*\[FILE\] pixel\.png/);
    expect(JSON.parse(okText(results["directory_tree"]))).toEqual([
      { name: "docs", type: "directory", children: [{ name: "moved.txt", type: "file" }] },
    ]);
    expect(okText(results["search_files"])).toBe(join(sandbox, "docs", "moved.txt"));
    expect(okText(results["get_file_info"])).toMatch(/^size: 23$/m);
  }, 60_000);

  it("calls every tool of the memory server through its generated client", async () => {
    process.env.MEMORY_FILE_PATH = join(work, "memory.jsonl");
    const results = await exerciseAll(pulled[2]!, process.execPath, [serverEntry("server-memory")]);
    expect(results["create_entities"]).toMatchObject({ names: ["mcp-gen", "MCP"] });
    expect(results["create_relations"]).toMatchObject({
      structuredContent: { relations: [{ from: "mcp-gen", to: "MCP", relationType: "implements" }] },
    });
    expect(results["add_observations"]).toMatchObject({
      structuredContent: { results: [{ entityName: "MCP", addedObservations: ["has revisions", "to be removed"] }] },
    });
    expect(results["search_nodes"]).toMatchObject({
      structuredContent: { entities: [{ name: "mcp-gen", observations: ["pulls manifests"] }] },
    });
    expect(results["open_nodes"]).toMatchObject({
      structuredContent: {
        entities: [{ name: "MCP", observations: ["has revisions", "to be removed"] }],
        relations: [{ from: "mcp-gen", to: "MCP" }],
      },
    });
    expect(results["read_graph"]).toMatchObject({
      structuredContent: {
        entities: [{ name: "mcp-gen" }, { name: "MCP" }],
        relations: [{ relationType: "implements" }],
      },
    });
    for (const name of ["delete_observations", "delete_relations", "delete_entities"]) {
      expect(results[name], name).toMatchObject({ structuredContent: { success: true } });
    }
    expect(results["graphAfterDeletes"]).toEqual({
      entities: [{ name: "MCP", entityType: "protocol", observations: ["has revisions"] }],
      relations: [],
    });
  }, 60_000);

  it("calls every tool of our everything example over HTTP through its generated client", async () => {
    const results = await exerciseAll(pulled[3]!, example.url, sandbox);
    expect(results["revision"]).toBe("2026-07-28");
    const id = (results["add_note"] as { id: string }).id;
    expect(results["add_note"]).toMatchObject({ structuredContent: { title: "Pulled", tags: ["pull"] } });
    expect(okText(results["get_note"])).toContain("Pulled (2 words, tags: pull)");
    expect(results["search_notes"]).toMatchObject({
      content: [expect.objectContaining({ type: "resource_link", uri: `notes://notes/${id}`, title: "Pulled" })],
    });
    expect(results["note_media"]).toMatchObject({
      content: [
        { type: "image", mimeType: "image/png" },
        { type: "audio", mimeType: "audio/wav" },
      ],
    });
    expect(okText(results["reindex"])).toMatch(/^Reindexed \d+ notes$/);
    expect((results["reindex"] as { progress: number[] }).progress.length).toBeGreaterThan(0);
    expect(okText(results["summarize_note"])).toBe("Pulled: a pulled note");
    expect(okText(results["list_roots"])).toBe(`sandbox: ${pathToFileURL(sandbox).href}`);
    expect(okText(results["connect_calendar"])).toBe("Calendar connection started: finish it in your browser");
    expect(okText(results["delete_note"])).toBe('Deleted "Pulled"');
  }, 60_000);

  it("--check passes against the same server and names what drifted", () => {
    const [everything] = pulled;
    const same = runCli(["pull", "--stdio", everythingCommand, "-o", everything!.manifest, "--check"]);
    expect(same.stderr).toBe("");
    expect(same.status).toBe(0);
    const edited = readFileSync(everything!.manifest, "utf8")
      .replace("Echoes back the input string", "Echoes the input")
      .replace(/^  get-sum:$/m, "  get-total:")
      // An identifier is the user's to choose; --check does not count it as drift.
      .replace(/^  echo:$/m, "  echo:\n    identifier: say");
    const stale = join(work, "stale.yaml");
    writeFileSync(stale, edited);
    const drift = runCli(["pull", "--stdio", everythingCommand, "-o", stale, "--check"]);
    expect(drift.status).toBe(1);
    expect(drift.stderr).toContain("tools.echo: description changed");
    expect(drift.stderr).toContain("tools.get-total: no longer listed by the server");
    expect(drift.stderr).toContain("tools.get-sum: new on the server");
    expect(drift.stderr).toContain("3 difference(s)");
  }, 60_000);
});
