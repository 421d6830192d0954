// A spec bump is a regeneration: a protocol revision mcp-gen was never told about (built here
// at run time as the 2026-07-28 schema plus one optional field on Tool, placed as revision
// folder 2027-01-15) generates with a warning, diffs, serves and negotiates as the newest
// revision of its era, with generated clients on it and on older revisions, and with the
// official SDK v1 client, which negotiates an older revision.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { httpChannel, memoryChannel, type ClientChannel, type McpEndpoint, type Params } from "@mcp-gen/runtime";
import { listenHttp, type HttpListener } from "@mcp-gen/runtime/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliAsync, tempProject } from "../support/generate.js";
import { schemaDir } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";
import { NegotiationRecorder } from "./negotiation.js";

const bump = "2027-01-15";

const manifest = (protocol: string) => `mcpgen: 1
server: { name: echo, version: 1.0.0 }
protocol: ${protocol}
output: ./mcp
tools:
  echo:
    description: Says the text back
    input:
      type: object
      properties:
        text: { type: string }
      required: [text]
`;

const server = `import { createEchoServer } from "./mcp/index.js";

export const server = createEchoServer({ tools: { echo: ({ text }) => \`echo: \${text}\` } });
`;

interface EchoClient {
  readonly tools: { echo(args: { text: string }): Promise<Params> };
  readonly session: { readonly revision: string; readonly era: string };
  close(): Promise<void>;
}
interface Generated {
  connectEchoClient(channel: ClientChannel, options?: { revisions?: readonly string[] }): Promise<EchoClient>;
  revisions: readonly string[];
}

let project = "";
let generation = { status: null as number | null, stderr: "" };
let newServer: McpEndpoint;
let oldServer: McpEndpoint;
let newSide: Generated;
let oldSide: Generated;
let listener: HttpListener;
const open: { close(): Promise<void> }[] = [];

/** The official schema folders of the released revisions used here, and the bump beside them. */
function schemaFolder(root: string): void {
  for (const revision of ["2026-07-28", "2025-11-25"]) symlinkSync(join(schemaDir, revision), join(root, revision));
  const schema = JSON.parse(readFileSync(join(schemaDir, "2026-07-28", "schema.json"), "utf8")) as {
    $defs: { Tool: { properties: Record<string, unknown> } };
  };
  schema.$defs.Tool.properties.rank = {
    type: "integer",
    description: "Where the tool ranks among the server's tools.",
  };
  mkdirSync(join(root, bump));
  writeFileSync(join(root, bump, "schema.json"), JSON.stringify(schema, null, 2));
}

const textOf = (result: Params) => (result.content as { text?: string }[])[0]?.text;

beforeAll(async () => {
  project = tempProject({
    "new/mcp.yaml": manifest(`[${bump}, 2026-07-28, 2025-11-25]`),
    "new/server.ts": server,
    "old/mcp.yaml": manifest("[2026-07-28, 2025-11-25]"),
    "old/server.ts": server,
  });
  mkdirSync(join(project, "schemas"));
  schemaFolder(join(project, "schemas"));
  const run = await runCliAsync(["new/mcp.yaml", "-q", "--schema-dir", "schemas"], project);
  generation = { status: run.status, stderr: run.stderr };
  const old = await runCliAsync(["old/mcp.yaml", "-q", "--schema-dir", "schemas"], project);
  expect(old.stderr).toBe("");
  const files = ["new", "old"].flatMap((side) => [
    ...readdirSync(join(project, side, "mcp")).map((f) => join(project, side, "mcp", f)),
    join(project, side, "server.ts"),
  ]);
  const errors = typecheck(files);
  expect(errors, formatTypeErrors(errors)).toEqual([]);
  const load = async (side: string) => {
    const generated = (await import(pathToFileURL(join(project, side, "mcp", "index.ts")).href)) as Generated;
    const { server } = (await import(pathToFileURL(join(project, side, "server.ts")).href)) as { server: McpEndpoint };
    return { generated, server };
  };
  ({ generated: newSide, server: newServer } = await load("new"));
  ({ generated: oldSide, server: oldServer } = await load("old"));
  listener = await listenHttp(newServer, { port: 0 });
}, 120_000);

afterAll(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
  await listener?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

async function connect(side: Generated, channel: ClientChannel, revisions?: readonly string[]): Promise<EchoClient> {
  const client = await side.connectEchoClient(channel, revisions ? { revisions } : {});
  open.push(client);
  return client;
}

describe(`a schema folder ${bump} that mcp-gen has never seen`, () => {
  it("generates with one warning that it is not released, at the manifest's entry", () => {
    expect(generation.status).toBe(0);
    expect(generation.stderr).toBe(
      `mcp-gen: new/mcp.yaml:3:12: warning: ${bump} is not a released protocol revision; read from ${join(project, "schemas", bump, "schema.json")} as the newest revision of the modern era (the runtime treats it as 2026-07-28 where the schema does not say otherwise)\n`,
    );
    expect(newSide.revisions).toEqual([bump, "2026-07-28", "2025-11-25"]);
  });

  it("types the revision from its own schema: Tool has the new optional field there only", () => {
    const protocol = readFileSync(join(project, "new", "mcp", "protocol.gen.ts"), "utf8");
    const toolOf = (namespace: string) => {
      const body = protocol.slice(protocol.indexOf(`export declare namespace ${namespace} {`));
      return body.slice(
        body.indexOf("  export interface Tool {"),
        body.indexOf("\n  }\n", body.indexOf("  export interface Tool {")),
      );
    };
    expect(toolOf("V2027_01_15")).toMatch(/\n {4}rank\?: number \| undefined;/);
    expect(toolOf("V2026_07_28")).not.toContain("rank");
  });

  it("--check passes (with the same warning)", async () => {
    const run = await runCliAsync(["new/mcp.yaml", "--check", "--schema-dir", "schemas"], project);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`warning: ${bump} is not a released protocol revision`);
  });

  it("--strict makes the warning an error", async () => {
    const run = await runCliAsync(["new/mcp.yaml", "--check", "--strict", "--schema-dir", "schemas"], project);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`new/mcp.yaml:3:12: ${bump} is not a released protocol revision`));
  });

  it("a legacy-era schema dated after the modern era began is refused: the runtime would speak the wrong era to it", async () => {
    mkdirSync(join(project, "schemas", "2027-02-01"));
    writeFileSync(
      join(project, "schemas", "2027-02-01", "schema.json"),
      readFileSync(join(schemaDir, "2025-11-25", "schema.json")),
    );
    writeFileSync(join(project, "legacy.yaml"), manifest("2027-02-01").replace("./mcp", "./legacy"));
    const run = await runCliAsync(["legacy.yaml", "--schema-dir", "schemas"], project);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `${join(project, "schemas", "2027-02-01", "schema.json")}: is a legacy-era schema (it has an initialize request), but the runtime treats 2027-02-01 as modern era like the released revisions before it; this needs a newer mcp-gen`,
    );
  });

  it("diffs against 2026-07-28: the new field and nothing else (the 2026-07-28 schema patch applies to the copy too)", async () => {
    const run = await runCliAsync(["diff", "2026-07-28", bump, "--schema-dir", "schemas"], project);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`mcp-gen: warning: ${bump} is not a released protocol revision`);
    expect(run.stdout).toMatch(/^Types changed \(1\)$/m);
    expect(run.stdout).toMatch(/^ {2}Tool +rank +added +integer \(optional\)$/m);
    expect(run.stdout).toMatch(/^Methods \(0 added, 0 removed, 0 moved\)$/m);
  });
});

describe(`generated server and clients on ${bump}, with older peers`, () => {
  it(`the new client and server speak ${bump} (modern era), in memory and over HTTP`, async () => {
    for (const channel of [memoryChannel(newServer), httpChannel(listener.url)]) {
      const client = await connect(newSide, channel);
      expect([client.session.revision, client.session.era]).toEqual([bump, "modern"]);
      expect(textOf(await client.tools.echo({ text: "hi" }))).toBe("echo: hi");
    }
  });

  it.each(["2026-07-28", "2025-11-25"])(
    "the new client pinned to %s talks to the new server over HTTP",
    async (revision) => {
      const client = await connect(newSide, httpChannel(listener.url), [revision]);
      expect(client.session.revision).toBe(revision);
      expect(textOf(await client.tools.echo({ text: revision }))).toBe(`echo: ${revision}`);
    },
  );

  it("a client generated without the bump talks to the new server on 2026-07-28", async () => {
    const client = await connect(oldSide, httpChannel(listener.url));
    expect([client.session.revision, client.session.era]).toEqual(["2026-07-28", "modern"]);
    expect(textOf(await client.tools.echo({ text: "old" }))).toBe("echo: old");
  });

  it("the new client talks to a server generated without the bump on 2026-07-28", async () => {
    const client = await connect(newSide, memoryChannel(oldServer));
    expect(client.session.revision).toBe("2026-07-28");
    expect(textOf(await client.tools.echo({ text: "new" }))).toBe("echo: new");
  });

  it("the new client limited to 2027-01-15 and 2025-11-25 falls back to 2025-11-25 with a server generated without the bump", async () => {
    const client = await connect(newSide, memoryChannel(oldServer), ["2027-01-15", "2025-11-25"]);
    expect([client.session.revision, client.session.era]).toEqual(["2025-11-25", "legacy"]);
  });

  it("the official SDK v1 client negotiates 2025-11-25 with the new server over HTTP", async () => {
    const wire = new NegotiationRecorder(new StreamableHTTPClientTransport(new URL(listener.url)));
    const client = new Client({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(wire as unknown as Transport);
    open.push(client);
    expect(wire.negotiated).toBe("2025-11-25");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    const result = await client.callTool({ name: "echo", arguments: { text: "sdk" } });
    expect(textOf(result as Params)).toBe("echo: sdk");
  });
});
