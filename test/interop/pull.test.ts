// `mcp-gen pull` against live servers: the three official reference servers over stdio
// (@modelcontextprotocol/server-everything, -filesystem, -memory; devDependencies) and our
// everything example over Streamable HTTP. Each pulled manifest must pass mcp-gen itself;
// the generated clients are driven by small programs (written below) that call tools with
// arguments valid for their schemas, and those programs are type-checked strictly, with one
// deliberately wrong call each that must be rejected (so loose `any` types would fail).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Pulled {
  readonly name: string;
  readonly manifest: string;
  /** The program that calls the generated client; exports exercise(). */
  readonly program: string;
}

/** Pulls, generates the client into <work>/<name>/mcp and writes the calling program. */
async function pullAndGenerate(name: string, source: string[], program: string): Promise<Pulled> {
  const dir = join(work, name);
  mkdirSync(dir);
  const manifest = join(dir, "mcp.yaml");
  const pull = await runCliAsync(["pull", ...source, "-o", manifest], repoRoot, { MEMORY_FILE_PATH: join(work, "memory.jsonl") });
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

const manifestOf = (pulled: Pulled) => parse(readFileSync(pulled.manifest, "utf8")) as Record<string, Record<string, Record<string, unknown>>>;

const everythingProgram = `import { stdioChannel } from "@mcp-gen/runtime/node";
import { connectMcpServersEverythingClient } from "./mcp/index.js";

export async function exercise(command: string, args: string[]): Promise<unknown[]> {
  const client = await connectMcpServersEverythingClient(stdioChannel({ command, args, stderr: "ignore" }), { timeoutMs: 60_000 });
  try {
    const echo = await client.tools.echo({ message: "pulled" });
    const sum = await client.tools.getSum({ a: 2, b: 3 });
    const weather = await client.tools.getStructuredContent({ location: "Chicago" });
    if (weather.isError) throw new Error("get-structured-content failed");
    const temperature: number = weather.structuredContent.temperature;
    // @ts-expect-error location is one of three cities
    if (false as boolean) await client.tools.getStructuredContent({ location: "Paris" });
    return [echo.content, sum.content, temperature, client.session.revision];
  } finally {
    await client.close();
  }
}
`;

const filesystemProgram = `import { stdioChannel } from "@mcp-gen/runtime/node";
import { connectSecureFilesystemClient } from "./mcp/index.js";

export async function exercise(command: string, args: string[], root: string): Promise<unknown[]> {
  const client = await connectSecureFilesystemClient(stdioChannel({ command, args, stderr: "ignore" }), { timeoutMs: 60_000 });
  try {
    await client.tools.writeFile({ path: root + "/note.txt", content: "written through a pulled client" });
    const read = await client.tools.readTextFile({ path: root + "/note.txt" });
    const listing = await client.tools.listDirectory({ path: root });
    // @ts-expect-error path is required
    if (false as boolean) await client.tools.readTextFile({});
    return [read.content, listing.content];
  } finally {
    await client.close();
  }
}
`;

const memoryProgram = `import { stdioChannel } from "@mcp-gen/runtime/node";
import { connectMemoryClient } from "./mcp/index.js";

export async function exercise(command: string, args: string[]): Promise<unknown[]> {
  const client = await connectMemoryClient(stdioChannel({ command, args, stderr: "ignore" }), { timeoutMs: 60_000 });
  try {
    await client.tools.createEntities({ entities: [{ name: "mcp-gen", entityType: "project", observations: ["pulls manifests"] }] });
    const found = await client.tools.searchNodes({ query: "mcp-gen" });
    // @ts-expect-error observations are strings
    if (false as boolean) await client.tools.createEntities({ entities: [{ name: "x", entityType: "y", observations: [1] }] });
    return [found.content, found.structuredContent];
  } finally {
    await client.close();
  }
}
`;

const exampleProgram = `import { httpChannel } from "@mcp-gen/runtime";
import { connectNotesClient } from "./mcp/index.js";

export async function exercise(url: string): Promise<unknown[]> {
  const client = await connectNotesClient(httpChannel(url), { timeoutMs: 60_000 });
  try {
    const added = await client.tools.addNote({ title: "Pulled", body: "over HTTP", tags: ["pull"] });
    if (added.isError) throw new Error("add_note failed");
    const id: string = added.structuredContent.id;
    const found = await client.tools.searchNotes({ query: "pulled", tag: "pull" });
    // @ts-expect-error title is a string
    if (false as boolean) await client.tools.addNote({ title: 1, body: "" });
    return [id, found.content, client.session.revision];
  } finally {
    await client.close();
  }
}
`;

function textOf(content: unknown): string {
  return (content as { type: string; text?: string }[]).map((block) => block.text ?? "").join("\n");
}

describe("mcp-gen pull over stdio and HTTP", () => {
  let example: HttpServerProcess;
  const pulled: Pulled[] = [];

  beforeAll(async () => {
    example = await startHttpServer(join(repoRoot, "examples", "everything", "src", "main.ts"), "--http", "--port", "0");
    pulled.push(
      ...(await Promise.all([
        pullAndGenerate("everything", ["--stdio", everythingCommand], everythingProgram),
        pullAndGenerate("filesystem", ["--stdio", `"${process.execPath}" "${serverEntry("server-filesystem")}" "${sandbox}"`], filesystemProgram),
        pullAndGenerate("memory", ["--stdio", `"${process.execPath}" "${serverEntry("server-memory")}"`], memoryProgram),
        pullAndGenerate("example", ["--url", example.url], exampleProgram),
      ])),
    );
  }, 180_000);

  afterAll(async () => {
    await stopAllChildren();
  });

  it("keeps tools' schemas, annotations, icons and titles exactly, with resources, templates and prompts", () => {
    const [everything, , , http] = pulled;
    const hand = parse(readFileSync(join(repoRoot, "test", "interop", "everything", "mcp.yaml"), "utf8")) as Record<string, Record<string, Record<string, unknown>>>;
    const got = manifestOf(everything!);
    expect(got.generate).toEqual({ server: false });
    for (const name of ["echo", "get-sum", "get-structured-content", "get-annotated-message", "get-resource-reference"]) {
      expect(got.tools![name]!.input, name).toEqual(hand.tools![name]!.input);
      expect(got.tools![name]!.output, name).toEqual(hand.tools![name]!.output);
    }
    expect(got.tools!.echo!.annotations).toEqual(hand.tools!.echo!.annotations);
    expect(Object.values(got.resourceTemplates!).map((t) => t.uriTemplate)).toContain("demo://resource/dynamic/text/{resourceId}");
    expect(got.prompts!["args-prompt"]!.arguments).toEqual({ city: { required: true, description: "Name of the city" }, state: { required: false } });

    const source = parse(readFileSync(join(repoRoot, "examples", "everything", "mcp.yaml"), "utf8")) as Record<string, Record<string, Record<string, unknown>>>;
    const overHttp = manifestOf(http!);
    expect(Object.keys(overHttp.tools!)).toEqual(Object.keys(source.tools!));
    const search = overHttp.tools!.search_notes!;
    expect((search.input as { properties: { tag: Record<string, unknown> } }).properties.tag["x-mcp-header"]).toBe("Tag");
    expect(overHttp.tools!.reindex!.icons).toEqual(source.tools!.reindex!.icons);
    expect(overHttp.tools!.add_note!.title).toBe("Add note");
    expect(Object.keys(overHttp.prompts!)).toEqual(Object.keys(source.prompts!));
  });

  it("type-checks the calls strictly, rejecting the wrong ones", () => {
    const errors = typecheck(pulled.map((p) => p.program));
    expect(formatTypeErrors(errors)).toBe("");
  }, 120_000);

  it("calls tools of each server through its generated client", async () => {
    const load = async (p: Pulled) => (await import(pathToFileURL(p.program).href)) as { exercise: (...args: (string | string[])[]) => Promise<unknown[]> };
    const [everything, filesystem, memory, http] = pulled;
    const [echo, sum, temperature, revision] = await (await load(everything!)).exercise(process.execPath, [serverEntry("server-everything"), "stdio"]);
    expect(textOf(echo)).toContain("pulled");
    expect(textOf(sum)).toContain("5");
    expect(typeof temperature).toBe("number");
    expect(revision).toBe("2025-11-25");

    const [read, listing] = await (await load(filesystem!)).exercise(process.execPath, [serverEntry("server-filesystem"), sandbox], sandbox);
    expect(textOf(read)).toBe("written through a pulled client");
    expect(textOf(listing)).toContain("note.txt");

    process.env.MEMORY_FILE_PATH = join(work, "memory.jsonl");
    const [found] = await (await load(memory!)).exercise(process.execPath, [serverEntry("server-memory")]);
    expect(textOf(found)).toContain("pulls manifests");

    const [id, notes, httpRevision] = await (await load(http!)).exercise(example.url);
    expect(typeof id).toBe("string");
    // The tag also travels as the Mcp-Param-Tag header (x-mcp-header), which the server checks.
    expect(notes).toEqual([expect.objectContaining({ type: "resource_link", uri: `notes://notes/${String(id)}`, title: "Pulled" })]);
    expect(httpRevision).toBe("2026-07-28");
  }, 120_000);

  it("--check passes against the same server and names what drifted", () => {
    const [everything] = pulled;
    const same = runCli(["pull", "--stdio", everythingCommand, "-o", everything!.manifest, "--check"]);
    expect(same.stderr).toBe("");
    expect(same.status).toBe(0);
    const edited = readFileSync(everything!.manifest, "utf8").replace("Echoes back the input string", "Echoes the input").replace(/^  get-sum:$/m, "  get-total:")
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
