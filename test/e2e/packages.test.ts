// The two packages as users install them: `npm pack` the generator (mcp-gen) and the runtime
// (@mcp-gen/runtime), install them into a fresh app outside this repository (the generator as a
// devDependency, the runtime as a dependency), generate a server with `npx mcp-gen`, compile it
// against the installed runtime's types and serve it over stdio. A production install of that app
// holds exactly one package from us and none of the generator's dependencies, installing the
// tarballs runs no install script (npm warns about every one it has not been told to allow), and
// both ship the sources their source maps point at.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, packTarballs, run, succeeded } from "../support/packed.js";
import { repoRoot } from "../support/paths.js";
import { strictOptions } from "../support/typecheck.js";

interface LsNode {
  version?: string;
  dependencies?: Record<string, LsNode>;
}

/** Every package `npm ls --json` reports as installed (name@version), depth first, sorted. */
function installed(tree: LsNode): string[] {
  const found = new Set<string>();
  const visit = (node: LsNode) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      // An optional peer dependency nobody installed is listed without a version.
      if (child.version !== undefined) found.add(`${name}@${child.version}`);
      visit(child);
    }
  };
  visit(tree);
  return [...found].sort();
}

const manifest = `mcpgen: 1
server: { name: echo, version: 1.0.0 }
protocol: [2026-07-28, 2025-11-25]
output: ./src/mcp
tools:
  echo:
    description: Says the text back
    input:
      type: object
      properties: { text: { type: string } }
      required: [text]
`;

const server = `import { serveStdio } from "@mcp-gen/runtime/node";
import { createEchoServer } from "./mcp/index.js";

serveStdio(createEchoServer({ tools: { echo: ({ text }) => ({ content: [{ type: "text", text }] }) } }));
`;

describe("the packed generator and runtime in a fresh app", () => {
  let work = "";
  let app = "";
  const installOutput: string[] = [];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "mcp-gen-packages-"));
    const tarballs = packTarballs(join(work, "tarballs"));

    app = join(work, "app");
    mkdirSync(join(app, "src"), { recursive: true });
    writeFileSync(
      join(app, "package.json"),
      `${JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module" }, null, 2)}\n`,
    );
    writeFileSync(join(app, "mcp.yaml"), manifest);
    writeFileSync(join(app, "src", "server.ts"), server);
    for (const args of [
      ["install", "--prefer-offline", "-D", tarballs.generator],
      ["install", "--prefer-offline", tarballs.runtime],
    ]) {
      const result = succeeded(run(npm, args, app), `npm ${args.join(" ")}`);
      installOutput.push(result.stdout + result.stderr);
    }
  }, 120_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("installs without running or announcing an install script", () => {
    for (const output of installOutput) {
      expect(output).not.toMatch(/install-scripts|install script|prepare/i);
    }
  });

  it("`mcp-gen pack` asks for esbuild, an optional peer dependency, instead of installing it with mcp-gen", () => {
    writeFileSync(
      join(app, "ship.yaml"),
      manifest.replace(
        "server: { name: echo, version: 1.0.0 }",
        "server: { name: echo, version: 1.0.0, description: Says the text back }",
      ),
    );
    const packed = run(
      npm,
      [
        "exec",
        "--offline",
        "--",
        "mcp-gen",
        "pack",
        "ship.yaml",
        "--entry",
        "src/server.ts",
        "--no-mcpb",
        "--remote",
        "https://echo.example.com/mcp",
      ],
      app,
    );
    expect(packed.stderr).toBe(
      "mcp-gen: src/server.ts: mcp-gen pack bundles the server with esbuild, which is not installed: npm install -D esbuild\n",
    );
    expect(packed.status).toBe(1);
    expect(existsSync(join(app, "dist"))).toBe(false);
  });

  it("a production install holds exactly @mcp-gen/runtime; the generator and its dependencies are dev only", () => {
    const production = JSON.parse(
      succeeded(run(npm, ["ls", "--omit=dev", "--all", "--json"], app), "npm ls --omit=dev").stdout,
    ) as LsNode;
    expect(installed(production)).toEqual(["@mcp-gen/runtime@0.1.0"]);
    // What the README says the plain listing shows: the runtime, its optional peers unmet until installed.
    const { peerDependencies } = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    };
    const listing = succeeded(run(npm, ["ls", "--omit=dev", "--all"], app), "npm ls --omit=dev --all").stdout;
    const entries = listing
      .split("\n")
      .slice(1)
      .map((line) => line.replace(/^[\s\u2500-\u257f`|+-]+/, ""))
      .filter(Boolean);
    expect(entries).toEqual([
      "@mcp-gen/runtime@0.1.0",
      ...Object.entries(peerDependencies).map(([name, range]) => `UNMET OPTIONAL DEPENDENCY ${name}@${range}`),
    ]);
    // The full tree does hold the generator and what it runs on: the line above has something to leave out.
    const everything = installed(
      JSON.parse(succeeded(run(npm, ["ls", "--all", "--json"], app), "npm ls").stdout) as LsNode,
    );
    expect(everything).toContain("mcp-gen@0.1.0");
    expect(everything.some((entry) => entry.startsWith("yaml@"))).toBe(true);
  });

  it("both packages ship the TypeScript sources their source maps name", () => {
    for (const dist of [
      join(app, "node_modules", "@mcp-gen", "runtime", "dist"),
      join(app, "node_modules", "mcp-gen", "dist", "generator"),
    ]) {
      const maps = readdirSync(dist, { recursive: true })
        .map(String)
        .filter((file) => file.endsWith(".js.map"));
      expect(maps.length, dist).toBeGreaterThan(10);
      const missing = maps.flatMap((map) => {
        const { sources } = JSON.parse(readFileSync(join(dist, map), "utf8")) as { sources: string[] };
        return sources.map((source) => join(dirname(join(dist, map)), source)).filter((source) => !existsSync(source));
      });
      expect(missing).toEqual([]);
    }
  });

  it("`npx mcp-gen` generates a server that compiles against the installed runtime and answers over stdio", () => {
    const generated = succeeded(run(npm, ["exec", "--offline", "--", "mcp-gen", "mcp.yaml", "-q"], app), "npx mcp-gen");
    expect(generated.stderr).toBe("");

    // Compiled here with the strict flags, resolving @mcp-gen/runtime from the app's node_modules.
    const sources = readdirSync(join(app, "src"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name));
    const program = ts.createProgram(sources, {
      ...strictOptions,
      noEmit: false,
      rootDir: join(app, "src"),
      outDir: join(app, "build"),
    });
    const emitted = program.emit();
    const problems = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics);
    expect(problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    const runtimeFiles = program
      .getSourceFiles()
      .filter((file) => file.fileName.includes("/node_modules/@mcp-gen/runtime/"));
    expect(runtimeFiles.length).toBeGreaterThan(0);
    expect(
      runtimeFiles.every((file) => file.fileName.startsWith(join(app, "node_modules", "@mcp-gen", "runtime", "dist"))),
    ).toBe(true);

    const requests = [
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
        params: { name: "echo", arguments: { text: "from the tarballs" } },
      },
    ];
    const served = succeeded(
      run(process.execPath, ["build/server.js"], app, {
        input: requests.map((r) => JSON.stringify(r)).join("\n") + "\n",
      }),
      "node build/server.js",
    );
    const answers = served.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id?: number; result?: { content?: { text?: string }[] } });
    expect(answers.find((a) => a.id === 2)?.result?.content?.[0]?.text).toBe("from the tarballs");
  });
});
