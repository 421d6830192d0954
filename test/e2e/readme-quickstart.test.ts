// The Quickstart runs as written: README.md's Quickstart installs both packages from tarballs
// and generates with `npx mcp-gen`; docs/tutorial.md then builds a server file by file. Every
// block of the tutorial marked `<!-- quickstart-file: path -->` is written into a fresh project,
// which is generated with the CLI, compiled under the strict flags generated code promises, and
// run (a stdio client that spawns the server and calls its tool; an in-process client over
// memoryChannel). Editing the documents cannot drift from what works.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const tutorial = readFileSync(join(repoRoot, "docs", "tutorial.md"), "utf8");

/** The Quickstart section: from its heading to the next second-level heading. */
function quickstartSection(): string {
  const start = readme.indexOf("\n## Quickstart");
  expect(start, "README has a Quickstart section").toBeGreaterThanOrEqual(0);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The marked code blocks, by the path each marker names. */
function quickstartFiles(text: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const match of text.matchAll(/<!-- quickstart-file: (\S+) -->\n```[a-z]*\n([\s\S]*?)\n```/g))
    files[match[1]!] = `${match[2]!}\n`;
  return files;
}

function run(dir: string, file: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["--import", "tsx", file], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("README Quickstart and docs/tutorial.md", () => {
  const section = quickstartSection();
  const files = quickstartFiles(tutorial);
  let dir = "";

  beforeAll(() => {
    dir = tempProject(files);
    const generated = runCli(["mcp.yaml", "-q"], dir);
    expect(generated.stderr).toBe("");
    expect(generated.status).toBe(0);
  }, 60_000);

  it("the tutorial shows every file the project needs; the Quickstart installs both packages from tarballs and runs init's scripts, offline with init --schema-dir", () => {
    expect(Object.keys(files).sort()).toEqual([
      "mcp.yaml",
      "schemas/forecast.json",
      "src/check.ts",
      "src/client.ts",
      "src/handlers.ts",
      "src/once.ts",
      "src/server.ts",
    ]);
    expect(section).not.toMatch(/^npm install mcp-gen\b/m); // not on the registry yet
    // Both packages packed, the generator installed as a devDependency and the runtime as a dependency.
    const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(section).toMatch(/npm pack --workspaces --include-workspace-root/);
    expect(section).toContain(`\nnpm install -D ../mcp-gen/mcp-gen-${version}.tgz `);
    expect(section).toContain(`\nnpm install ../mcp-gen/mcp-gen-runtime-${version}.tgz\n`);
    expect(section).toMatch(/^npx mcp-gen schema fetch\s/m);
    expect(section).toMatch(/^npm run generate && npm test\s/m);
    expect(section).toMatch(/^npm run build && npm start\s/m);
    expect(section).toContain("`init --schema-dir <dir>`");
    // the manifest's output schema is the file shown
    expect(files["mcp.yaml"]).toContain("$ref: ./schemas/forecast.json");
    expect(() => JSON.parse(files["schemas/forecast.json"]!)).not.toThrow();
  });

  it("compiles under --strict --exactOptionalPropertyTypes --noUncheckedIndexedAccess", () => {
    const sources = readdirSync(join(dir, "src"), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => join(e.parentPath, e.name));
    expect(formatTypeErrors(typecheck(sources))).toBe("");
  });

  it("src/client.ts spawns src/server.ts over stdio and calls get_forecast", () => {
    const result = run(dir, "src/client.ts");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("3\n");
  }, 60_000);

  it("src/check.ts calls the server in process over memoryChannel", () => {
    const result = run(dir, "src/check.ts");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("Oslo\n");
  }, 60_000);

  it("src/once.ts reaches the server from a handler: the tool answers once, then leaves the list", () => {
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_forecast", arguments: { city: "Paris", days: 1 } },
      },
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
    ];
    const result = spawnSync(process.execPath, ["--import", "tsx", "src/once.ts"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
      input: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    });
    expect(result.status).toBe(0);
    const messages = result.stdout
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            id?: number;
            method?: string;
            result?: { structuredContent?: { city: string }; tools?: unknown[] };
          },
      );
    expect(messages.find((m) => m.id === 2)?.result?.structuredContent?.city).toBe("Paris");
    expect(messages.some((m) => m.method === "notifications/tools/list_changed")).toBe(true);
    expect(messages.find((m) => m.id === 3)?.result?.tools).toEqual([]);
  }, 60_000);
});
