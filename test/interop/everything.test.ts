// Interop: the client generated from test/interop/everything/mcp.yaml (generate: { server: false })
// driving the third-party reference server @modelcontextprotocol/server-everything (an
// official-SDK-v1 server, not written for this project) over a real child process's stdio.
// The client offers all five revisions, preferring 2026-07-28: the server has no
// server/discover, so the client must fall back to initialize and settle on 2025-11-25.
//
// Server behaviour worth knowing (none of it breaks the spec):
// - get-structured-content declares an outputSchema and returns structuredContent plus the
//   same object serialized as a text block, as 2025-06-18+ recommends.
// - dynamic blob resources report mimeType text/plain in their contents although the template
//   advertises application/octet-stream (a template's mimeType is only a hint).
// - dynamic text resources embed the wall-clock creation time, so only their prefix is asserted.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";
import {
  connectEverythingClient,
  type EverythingClient,
  type GetStructuredContentOutput,
} from "./everything/mcp/index.js";

const pkgDir = join(repoRoot, "node_modules", "@modelcontextprotocol", "server-everything");
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { bin: Record<string, string> };
const entry = join(pkgDir, pkg.bin["mcp-server-everything"] ?? "dist/index.js");

interface ManifestSchemas {
  tools: Record<string, { input?: unknown; output?: unknown }>;
  resources: Record<string, { uri: string }>;
  resourceTemplates: Record<string, { uriTemplate: string }>;
  prompts: Record<string, { arguments?: Record<string, { required?: boolean }> }>;
}
const manifest = parse(
  readFileSync(join(repoRoot, "test", "interop", "everything", "mcp.yaml"), "utf8"),
) as ManifestSchemas;

function textOf(content: readonly unknown[], index = 0): string {
  const block = content[index] as { type?: string; text?: unknown } | undefined;
  if (block?.type !== "text" || typeof block.text !== "string")
    throw new Error(`no text block at ${index} in ${JSON.stringify(content)}`);
  return block.text;
}

describe("the interop client's generated code", () => {
  it("is up to date with its manifest", () => {
    const run = runCli(["test/interop/everything/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

describe("generated client → @modelcontextprotocol/server-everything over stdio", () => {
  let client: EverythingClient;

  beforeAll(async () => {
    client = await connectEverythingClient(
      stdioChannel({ command: process.execPath, args: [entry, "stdio"], stderr: "ignore" }),
      // Generous: a cold start on a busy 2-core runner can take a while.
      { timeoutMs: 60_000 },
    );
  });

  afterAll(async () => {
    await client?.close().catch(() => {});
  });

  it("falls back from the server/discover probe to initialize and negotiates 2025-11-25", () => {
    expect(client.session.era).toBe("legacy");
    expect(client.session.revision).toBe("2025-11-25");
    expect(client.session.server.info?.name).toBe("mcp-servers/everything");
    expect(client.session.server.capabilities).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
    });
    expect(typeof client.session.server.instructions).toBe("string");
  });

  it("offers every tool the manifest declares, with the same input and output schemas", async () => {
    const tools = await client.session.listAll("tools/list", "tools");
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const [name, decl] of Object.entries(manifest.tools)) {
      const tool = byName.get(name);
      expect(tool, `tool ${name}`).toBeDefined();
      // A tool without declared input takes no arguments: the server lists an empty object schema.
      const listed = tool as { inputSchema?: { properties?: unknown }; outputSchema?: unknown } | undefined;
      if (decl.input === undefined) expect(listed?.inputSchema?.properties ?? {}).toEqual({});
      else expect(listed?.inputSchema, `inputSchema of ${name}`).toEqual(decl.input);
      expect(listed?.outputSchema, `outputSchema of ${name}`).toEqual(decl.output);
    }
  });

  it("offers the declared resource, resource templates and prompts", async () => {
    const uris = (await client.session.listAll("resources/list", "resources")).map((r) => r.uri);
    for (const { uri } of Object.values(manifest.resources)) expect(uris).toContain(uri);

    const templates = (await client.session.listAll("resources/templates/list", "resourceTemplates")).map(
      (t) => t.uriTemplate,
    );
    for (const { uriTemplate } of Object.values(manifest.resourceTemplates)) expect(templates).toContain(uriTemplate);

    const prompts = await client.session.listAll("prompts/list", "prompts");
    for (const [name, decl] of Object.entries(manifest.prompts)) {
      const prompt = prompts.find((p) => p.name === name);
      expect(prompt, `prompt ${name}`).toBeDefined();
      const listed =
        (prompt as { arguments?: readonly { name: string; required?: boolean }[] } | undefined)?.arguments ?? [];
      const args = Object.fromEntries(listed.map((a) => [a.name, a.required === true]));
      const declared = Object.fromEntries(
        Object.entries(decl.arguments ?? {}).map(([arg, a]) => [arg, a.required === true]),
      );
      expect(args, `arguments of ${name}`).toEqual(declared);
    }
  });

  it("tools.echo", async () => {
    const result = await client.tools.echo({ message: "héllo, wörld ✓" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe("Echo: héllo, wörld ✓");
  });

  it("tools.getSum with number arguments", async () => {
    const result = await client.tools.getSum({ a: 2, b: 3.5 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe("The sum of 2 and 3.5 is 5.5.");
  });

  it("tools.getStructuredContent resolves with typed structuredContent validated against the output schema", async () => {
    const result = await client.tools.getStructuredContent({ location: "Chicago" });
    if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
    expectTypeOf(result.structuredContent).toEqualTypeOf<GetStructuredContentOutput>();
    expect(result.structuredContent).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    // The server mirrors the structured result as serialized JSON text for older clients.
    expect(JSON.parse(textOf(result.content))).toEqual(result.structuredContent);
  });

  it("tools.getAnnotatedMessage returns annotated text and an image block", async () => {
    const result = await client.tools.getAnnotatedMessage({ messageType: "success", includeImage: true });
    expect(result.isError).toBeFalsy();
    expect(result.content[0]).toMatchObject({ type: "text", annotations: { audience: ["user"] } });
    expect(result.content.some((c) => c.type === "image" && c.mimeType === "image/png" && c.data.length > 0)).toBe(
      true,
    );
  });

  it("tools.getTinyImage takes no arguments", async () => {
    const result = await client.tools.getTinyImage();
    expect(result.isError).toBeFalsy();
    const image = result.content.find((c) => c.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    // A PNG: base64 of the 8-byte signature starts with iVBORw0KGgo.
    expect(image?.type === "image" && image.data.startsWith("iVBORw0KGgo")).toBe(true);
  });

  it("tools.getResourceReference returns an embedded resource", async () => {
    const result = await client.tools.getResourceReference({ resourceId: 7 });
    expect(result.isError).toBeFalsy();
    const embedded = result.content.find((c) => c.type === "resource");
    expect(embedded).toMatchObject({
      type: "resource",
      resource: { uri: "demo://resource/dynamic/text/7", mimeType: "text/plain" },
    });
  });

  it("an invalid argument is a tool error result (2025-11-25), not a transport failure", async () => {
    // Deliberately outside the declared enum: the client does not validate arguments, the server does.
    const result = await client.tools.getStructuredContent({ location: "Paris" as "Chicago" });
    expect(result.isError).toBe(true);
  });

  it("resources.featuresDoc reads the static document", async () => {
    const result = await client.resources.featuresDoc();
    expect(result.contents).toHaveLength(1);
    const [doc] = result.contents;
    expect(doc).toMatchObject({ uri: "demo://resource/static/document/features.md", mimeType: "text/markdown" });
    expect(doc && "text" in doc ? doc.text : "").toMatch(/^# Everything Server - Features/);
  });

  it("resourceTemplates.dynamicText expands the template and reads the text resource", async () => {
    const result = await client.resourceTemplates.dynamicText({ resourceId: "3" });
    const [item] = result.contents;
    expect(item).toMatchObject({ uri: "demo://resource/dynamic/text/3" });
    expect(item && "text" in item ? item.text : "").toMatch(/^Resource 3: This is a plaintext resource/);
  });

  it("resourceTemplates.dynamicBlob reads a base64 blob", async () => {
    const result = await client.resourceTemplates.dynamicBlob({ resourceId: "4" });
    const [item] = result.contents;
    expect(item).toMatchObject({ uri: "demo://resource/dynamic/blob/4" });
    const blob = item && "blob" in item ? item.blob : "";
    expect(Buffer.from(blob, "base64").toString("utf8")).toMatch(/^Resource 4: This is a base64 blob/);
  });

  it("prompts.simplePrompt, without arguments", async () => {
    const result = await client.prompts.simplePrompt();
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "This is a simple prompt without arguments." } },
    ]);
  });

  it("prompts.argsPrompt with required and optional arguments", async () => {
    expect((await client.prompts.argsPrompt({ city: "Paris", state: "IDF" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "What's weather in Paris, IDF?" } },
    ]);
    const withoutOptional = await client.prompts.argsPrompt({ city: "Oslo" });
    expect(withoutOptional.messages[0]?.content).toMatchObject({ type: "text", text: expect.stringContaining("Oslo") });
  });

  it("prompts.resourcePrompt embeds a resource", async () => {
    const result = await client.prompts.resourcePrompt({ resourceType: "Text", resourceId: "2" });
    expect(result.messages).toHaveLength(2);
    expect(result.messages[1]?.content).toMatchObject({
      type: "resource",
      resource: { uri: "demo://resource/dynamic/text/2" },
    });
  });
});
