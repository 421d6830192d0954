// `_meta:` of tools, resources, resource templates and prompts in the manifest reaches the
// lists a real client fetches: a generated server over a real child process's stdio,
// listed by the official SDK v1 client, on a revision whose list entries carry `_meta`
// (2025-11-25) and on one whose entries have none (2025-03-26, where it is left out).
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { stopAllChildren, tsxCommand } from "./helpers.js";
import { NegotiationRecorder } from "./negotiation.js";

// Values that must arrive as written: text that would end a comment or open a template
// literal in generated code, a line separator, nested objects, lists, numbers and null.
const toolMeta = {
  "example.com/tier": '*/ `${pro}` \u2028 "quoted"',
  "example.com/limits": { perMinute: 60, burst: null, tags: ["a", "b"] },
};
const resourceMeta = { "com.example/owner": "notes-team" };
const templateMeta = { "cache-hint": 3600.5 };
const promptMeta = { "example.com/audience": ["reviewers"] };

const manifest = `mcpgen: 1
server: { name: meta-demo, version: 1.0.0 }
protocol: [2025-11-25, 2025-03-26]
tools:
  echo:
    description: Echoes its text
    input: { type: object, properties: { text: { type: string } }, required: [text] }
    _meta: ${JSON.stringify(toolMeta)}
resources:
  index:
    uri: notes://index
    _meta: ${JSON.stringify(resourceMeta)}
resourceTemplates:
  note:
    uriTemplate: "notes://note/{id}"
    _meta: ${JSON.stringify(templateMeta)}
prompts:
  review:
    messages: [{ role: user, text: Review my notes }]
    _meta: ${JSON.stringify(promptMeta)}
`;

const handlers = `import type { MetaDemoHandlers } from "./mcp/index.js";
export const handlers: MetaDemoHandlers = {
  tools: { echo: ({ text }) => text },
  resources: { index: () => "index" },
  resourceTemplates: { note: ({ id }) => \`note \${id}\` },
};
`;

const main = `import { closeOnSignals, serveStdio } from "@mcp-gen/runtime/node";
import { handlers } from "./handlers.js";
import { createMetaDemoServer } from "./mcp/index.js";
closeOnSignals(serveStdio(createMetaDemoServer(handlers)));
`;

let project: string;

beforeAll(() => {
  project = tempProject({ "mcp.yaml": manifest, "handlers.ts": handlers, "main.ts": main });
  const run = runCli(["mcp.yaml", "-q"], project);
  if (run.status !== 0) throw new Error(`generation failed:\n${run.stderr}`);
});

afterAll(stopAllChildren);

async function connect(askFor: string): Promise<{ client: Client; wire: NegotiationRecorder }> {
  const inner = new StdioClientTransport({ ...tsxCommand(join(project, "main.ts")), stderr: "pipe" });
  const wire = new NegotiationRecorder(inner, askFor);
  const client = new Client({ name: "e2e-list-meta", version: "1.0.0" });
  await client.connect(wire as unknown as Transport);
  return { client, wire };
}

describe("_meta declared in the manifest, listed by the SDK v1 client", () => {
  it("arrives in tools/list, resources/list, resources/templates/list and prompts/list on 2025-11-25", async () => {
    const { client, wire } = await connect("2025-11-25");
    try {
      expect(wire.negotiated).toBe("2025-11-25");
      expect((await client.listTools()).tools[0]?._meta).toEqual(toolMeta);
      expect((await client.listResources()).resources[0]?._meta).toEqual(resourceMeta);
      expect((await client.listResourceTemplates()).resourceTemplates[0]?._meta).toEqual(templateMeta);
      expect((await client.listPrompts()).prompts[0]?._meta).toEqual(promptMeta);
    } finally {
      await client.close();
    }
  });

  it("is left out on 2025-03-26, whose list entries have no _meta", async () => {
    const { client, wire } = await connect("2025-03-26");
    try {
      expect(wire.negotiated).toBe("2025-03-26");
      const entries = [
        (await client.listTools()).tools[0],
        (await client.listResources()).resources[0],
        (await client.listResourceTemplates()).resourceTemplates[0],
        (await client.listPrompts()).prompts[0],
      ];
      expect(entries.map((entry) => (entry === undefined ? "missing" : "_meta" in entry))).toEqual([
        false,
        false,
        false,
        false,
      ]);
    } finally {
      await client.close();
    }
  });
});
