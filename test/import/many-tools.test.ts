// An API with more operations than TypeScript types in one array literal: the generated
// server must still compile strictly. The tools/list tables and the definition's routing
// table once held every tool in one literal, whose union of ~1,000 distinct entry types is
// "too complex to represent" (TS2590; the APIs.guru document autotask.net, 2,958 tools).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { importProject, serve } from "./support/imported-project.js";

/** Operations of distinct input types (a parameter name of their own), so no entry type subsumes another. */
const operations = 1_100;

function manyOperations(): object {
  const paths: Record<string, object> = {};
  for (let i = 0; i < operations; i++) {
    paths[`/items${i}`] = {
      get: {
        operationId: `getItem${i}`,
        parameters: [{ name: `filter${i}`, in: "query", schema: { type: "string" } }],
        responses: { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } },
      },
    };
  }
  return { openapi: "3.0.3", info: { title: "Many", version: "1.0.0" }, servers: [{ url: "http://localhost" }], paths };
}

describe(`import openapi: ${operations} operations`, () => {
  let client: Client;

  beforeAll(async () => {
    const document = join(repoRoot, "test", "import", ".out", "many-operations.json");
    mkdirSync(join(document, ".."), { recursive: true });
    writeFileSync(document, JSON.stringify(manyOperations()));
    // importProject compiles the project strictly and throws with tsc's errors.
    const { project } = importProject("many-operations", document);
    client = await serve(project, {});
  }, 600_000);
  afterAll(async () => {
    await client?.close();
  });

  it("lists every tool, page by page, in the document's order", async () => {
    const tools: Awaited<ReturnType<Client["listTools"]>>["tools"] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(tools.map((tool) => tool.name)).toEqual(Array.from({ length: operations }, (_, i) => `getItem${i}`));
    expect(tools[operations - 1]!.inputSchema.properties).toHaveProperty(`filter${operations - 1}`);
  });
});
