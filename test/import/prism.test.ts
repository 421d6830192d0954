// Issue 30 §2, "a real HTTP server answers": both Petstore documents (OpenAPI 3.0 YAML, Swagger
// 2.0 JSON) imported with their deprecated operation too → generated → strict tsc, served over
// stdio with MCP_UPSTREAM_URL pointing at Prism mocking the same document with request
// validation on (support/prism.ts). Every operation is called through the generated typed
// client over a legacy revision (2025-11-25) and the modern one (2026-07-28), with arguments
// synthesized from each tool's input schema (support/sample-arguments.ts). Prism must find every
// request valid and answer 2xx; structured results must pass the generated output validators.
// GitHub's description gets the same treatment outside `npm test` (prism-github.test.ts).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";
import { callEveryTool, callProblem, importProject, type CallRecord } from "./support/call-every-tool.js";
import { startPrism, type Prism } from "./support/prism.js";

const fixtures = join(repoRoot, "test", "import", "fixtures");
const revisions = ["2025-11-25", "2026-07-28"] as const;

describe.each([
  { fixture: "petstore-3.0.yaml", outputs: 7 },
  { fixture: "petstore-2.0.json", outputs: 3 },
])("Prism validates every request of the imported $fixture", ({ fixture, outputs }) => {
  let prism: Prism;
  let project: string;
  let tools: string[];

  beforeAll(async () => {
    const starting = startPrism(join(fixtures, fixture));
    // Prism starts while the import, generation and tsc run.
    ({ project } = importProject(`prism-${fixture}`, join(fixtures, fixture), ["--include-deprecated", "-q"]));
    prism = await starting;
    tools = Object.keys((parse(readFileSync(join(project, "mcp.yaml"), "utf8")) as { tools: object }).tools);
  }, 300_000);
  afterAll(async () => {
    await prism?.close();
  });

  it("reports an invalid request (the check can fail)", async () => {
    const [before, loggedBefore] = [prism.exchanges.length, prism.loggedRequestErrors.length];
    const answer = await fetch(`${prism.url}/pets/1`, { method: "DELETE" });
    await answer.arrayBuffer();
    const [exchange] = prism.exchanges.slice(before);
    // No credentials: the document's security is not satisfied.
    expect(exchange!.status).toBeGreaterThanOrEqual(400);
    expect(exchange!.status).toBeLessThan(500);
    expect(exchange!.requestViolations.length).toBeGreaterThan(0);
    expect(prism.loggedRequestErrors.length).toBeGreaterThan(loggedBefore);
  });

  it.each(revisions)("every operation over %s: valid at Prism, answered, outputs valid", async (revision) => {
    const loggedBefore = prism.loggedRequestErrors.length;
    const records: CallRecord[] = await callEveryTool(project, prism, revision);
    expect(records.map((r) => r.tool)).toEqual(tools);
    expect(records.map(callProblem).filter((p) => p !== undefined)).toEqual([]);
    expect(records.filter((r) => r.outputValid === true)).toHaveLength(outputs);
    expect(prism.loggedRequestErrors.slice(loggedBefore)).toEqual([]);
  });
});

// What calling GitHub's description through Prism found (prism-github.test.ts), kept here as
// regressions that need neither GitHub's document nor Prism.
describe("found through Prism", () => {
  it("an OpenAPI 3.0 nullable enum accepts null (GitHub answers null there)", async () => {
    const dir = join(repoRoot, "test", "import", ".out", "prism-nullable-enum");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "api.yaml"),
      `openapi: 3.0.3
info: { title: Setup, version: 1.0.0 }
servers: [{ url: "http://api.example" }]
paths:
  /setup:
    get:
      operationId: getSetup
      responses:
        "200":
          description: The setup
          content:
            application/json:
              schema:
                type: object
                properties:
                  runner_type: { type: string, nullable: true, enum: [standard, labeled] }
`,
    );
    const project = join(dir, "project");
    for (const args of [
      ["import", "openapi", join(dir, "api.yaml"), "--out", project, "-q"],
      [join(project, "mcp.yaml"), "-q"],
    ]) {
      const run = runCli(args);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
    }
    const { validateGetSetupOutput: validate } = (await import(
      pathToFileURL(join(project, "src", "mcp", "index.ts")).href
    )) as Record<string, (value: unknown) => unknown>;
    expect(validate!({ runner_type: null })).toBeUndefined();
    expect(validate!({ runner_type: "labeled" })).toBeUndefined();
    expect(validate!({ runner_type: "other" })).toBeDefined();
  });
});
