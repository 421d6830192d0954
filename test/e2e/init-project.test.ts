// A project as `mcp-gen init` starts it, from the packed tarballs to production: init in an
// empty folder with the packed generator (npm exec), install both tarballs and the registry
// tools, then the project's own scripts: generate, typecheck, test, build. A copy without
// node_modules installs with `npm ci --omit=dev` and `npm start` answers `initialize` (over
// stdio; over HTTP for `init --http`, whose Dockerfile is checked against the project). The
// stdio project's `npm run bundle` makes an .mcpb bundle the official mcpb CLI accepts, which
// unpacked and started as its manifest.json says answers `initialize` too. Then
// what the project must catch: a handler removed (typecheck fails, start refuses with the
// list), a manifest argument whose type changes (check is stale, typecheck fails after
// generate), a port in use (one line, exit 1). One install serves both projects.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpb, mcpbLaunch, type McpbLaunchManifest } from "../support/mcpb.js";
import { npm, packTarballs, run, succeeded } from "../support/packed.js";
import { schemaDir } from "../support/paths.js";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
};

/**
 * Offline as an air-gapped CI is: no MCP_GEN_SCHEMA_DIR and an empty user cache, so the
 * project's scripts find the protocol schemas only where init pinned them (./mcp-schema).
 */
let offline: Record<string, string> = {};

/** Runs an npm script of the project (`npm run -s <script>`), generously timed. */
const script = (project: string, name: string, ...args: string[]) =>
  run(npm, ["run", "-s", name, ...(args.length > 0 ? ["--", ...args] : [])], project, {
    timeoutMs: 180_000,
    env: offline,
  });

/** A copy of the project without node_modules, installed for production only, as a deployment does it. */
function productionCopy(project: string, to: string): string {
  cpSync(project, to, { recursive: true, filter: (source) => !source.startsWith(join(project, "node_modules")) });
  succeeded(run(npm, ["ci", "--omit=dev", "--offline"], to, { timeoutMs: 120_000 }), "npm ci --omit=dev");
  return to;
}

/** Starts `npm start` with `env`; resolves with the URL it says it serves, and the process. */
async function startHttp(project: string, env: Record<string, string>) {
  const server = spawn(npm, ["start", "-s"], {
    cwd: project,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let said = "";
  server.stderr.setEncoding("utf8").on("data", (chunk: string) => (said += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 30 s:\n${said}`)), 30_000);
    server.stderr.on("data", () => {
      const found = /serving MCP at (\S+)/.exec(said);
      if (found?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    server.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${said}`)));
  });
  return { server, url, said: () => said };
}

/**
 * The Dockerfile as far as it can be checked without a Docker engine: every COPY source
 * exists in the project (or comes from an earlier stage), every `npm run` names a script, and
 * the CMD runs the file `npm run build` produced.
 */
function checkDockerfile(project: string): void {
  const lines = readFileSync(join(project, "Dockerfile"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const scripts = (
    JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
  const stages = lines.filter((line) => line.startsWith("FROM ")).map((line) => line.split(/\s+/).at(-1));
  expect(stages).toHaveLength(2);
  const copies = lines.filter((line) => line.startsWith("COPY "));
  expect(copies.length).toBeGreaterThan(0);
  for (const copy of copies) {
    const words = copy.split(/\s+/).slice(1);
    if (words[0]?.startsWith("--from=")) {
      expect(stages).toContain(words[0].slice("--from=".length));
      continue;
    }
    for (const source of words.slice(0, -1)) expect(existsSync(join(project, source)), `${copy}: ${source}`).toBe(true);
  }
  for (const line of lines.filter((l) => l.startsWith("RUN "))) {
    for (const [, name] of line.matchAll(/npm run (\S+)/g)) expect(Object.keys(scripts), line).toContain(name);
    for (const [, command] of line.matchAll(/npm (ci\b[^&]*)/g))
      expect(command, "the lock file is what npm ci installs").not.toContain("--no-package-lock");
  }
  const cmd = lines.find((line) => line.startsWith("CMD "));
  expect(JSON.parse(cmd!.slice(4))).toEqual(["node", "dist/main.js"]);
  expect(existsSync(join(project, "dist", "main.js")), "npm run build writes dist/main.js").toBe(true);
  expect(scripts.start).toBe("node dist/main.js");
  // The image holds no node_modules or dist of the host: they come from npm ci and the build stage.
  expect(readFileSync(join(project, ".dockerignore"), "utf8").split("\n")).toEqual(
    expect.arrayContaining(["node_modules/", "dist/"]),
  );
}

describe("a project started with mcp-gen init, from the tarballs to production", () => {
  let work = "";
  let app = "";
  let api = "";

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "mcp-gen-init-"));
    const tarballs = packTarballs(join(work, "tarballs"));
    // As a user does, before anything is installed: the packed generator runs init, which pins
    // the protocol schemas it finds (here the --schema-dir folder) into the project.
    // The author comes from npm's settings, as `npm init` takes it (a bundle needs one).
    const author = { npm_config_init_author_name: "Ada Lovelace", npm_config_init_author_email: "ada@example.com" };
    for (const args of [
      ["init", "app", "--name", "hello", "--schema-dir", schemaDir],
      ["init", "api", "--http", "--schema-dir", schemaDir],
    ]) {
      succeeded(
        run(
          npm,
          ["exec", "--yes", "--prefer-offline", "--package", tarballs.generator, "--", "mcp-gen", ...args],
          work,
          { timeoutMs: 180_000, env: author },
        ),
        `mcp-gen ${args.join(" ")}`,
      );
    }
    app = join(work, "app");
    api = join(work, "api");
    offline = { MCP_GEN_SCHEMA_DIR: "", XDG_CACHE_HOME: join(work, "empty-cache") };
    // What init's "next:" line says; installing mcp-gen brings the tools package.json lists.
    succeeded(
      run(npm, ["install", "--prefer-offline", "-D", tarballs.generator], app, { timeoutMs: 240_000 }),
      "npm install -D mcp-gen",
    );
    succeeded(
      run(npm, ["install", "--prefer-offline", tarballs.runtime], app, { timeoutMs: 120_000 }),
      "npm install @mcp-gen/runtime",
    );
    // The HTTP project needs the same packages: one install serves both (its lock names it).
    const lock = JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8")) as {
      name: string;
      packages: Record<string, { name?: string }>;
    };
    lock.name = "api";
    lock.packages[""]!.name = "api";
    writeFileSync(join(api, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
    const installed = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as Record<string, unknown>;
    const own = JSON.parse(readFileSync(join(api, "package.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(
      join(api, "package.json"),
      `${JSON.stringify({ ...own, dependencies: installed.dependencies, devDependencies: installed.devDependencies }, null, 2)}\n`,
    );
    symlinkSync(join(app, "node_modules"), join(api, "node_modules"), "dir");
  }, 600_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("stdio: generate, typecheck, test and build pass; a production install starts and answers initialize", () => {
    const generated = succeeded(script(app, "generate"), "npm run generate");
    expect(generated.stderr).toBe("");
    succeeded(script(app, "check"), "npm run check");
    succeeded(script(app, "typecheck"), "npm run typecheck");
    const tested = succeeded(script(app, "test"), "npm test");
    expect(tested.stdout).toMatch(/^# pass 2$/m);
    expect(tested.stdout).toMatch(/^# fail 0$/m);
    succeeded(script(app, "build"), "npm run build");

    const production = productionCopy(app, join(work, "app-production"));
    expect(existsSync(join(production, "node_modules", "typescript"))).toBe(false);
    expect(existsSync(join(production, "node_modules", "mcp-gen"))).toBe(false);
    const started = succeeded(
      run(npm, ["start", "-s"], production, { input: `${JSON.stringify(initialize)}\n` }),
      "npm start",
    );
    expect(JSON.parse(started.stdout.trim().split("\n")[0]!)).toMatchObject({
      id: 1,
      result: { protocolVersion: "2025-11-25", serverInfo: { name: "hello", version: "0.1.0" } },
    });
  }, 600_000);

  it("stdio: npm run bundle makes an .mcpb the mcpb CLI accepts, which started as its manifest.json says answers initialize", () => {
    const bundled = succeeded(script(app, "bundle"), "npm run bundle");
    expect(bundled.stderr).toBe("");
    const bundle = join(app, "dist", "hello-0.1.0.mcpb");
    expect(bundled.stdout).toContain("wrote dist/hello-0.1.0.mcpb");
    // dist/ is git-ignored: the bundle is a build output.
    expect(readFileSync(join(app, ".gitignore"), "utf8").split("\n")).toContain("dist/");

    const info = mcpb("info", bundle);
    expect(info.output).toContain("File: hello-0.1.0.mcpb");
    expect(info.status).toBe(0);
    const unpacked = join(work, "hello-unpacked");
    mkdirSync(unpacked);
    expect(mcpb("unpack", bundle, unpacked).status).toBe(0);
    const validate = mcpb("validate", join(unpacked, "manifest.json"));
    expect(validate.output).toContain("Manifest schema validation passes!");
    expect(validate.output).not.toContain("ERROR");
    expect(validate.status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as McpbLaunchManifest &
      Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: "hello",
      version: "0.1.0",
      description: "The hello MCP server",
      author: { name: "Ada Lovelace", email: "ada@example.com" },
      tools: [{ name: "greet" }],
    });

    // Outside the project, so nothing resolves from its node_modules.
    const { command, args, env } = mcpbLaunch(manifest, unpacked);
    const started = succeeded(
      run(command, args, work, { input: `${JSON.stringify(initialize)}\n`, env }),
      "the bundled server",
    );
    expect(JSON.parse(started.stdout.trim().split("\n")[0]!)).toMatchObject({
      id: 1,
      result: { protocolVersion: "2025-11-25", serverInfo: { name: "hello", version: "0.1.0" } },
    });
  }, 300_000);

  it("a removed handler fails typecheck, and the server built anyway refuses to start, naming it", () => {
    const handlersFile = join(app, "src", "handlers.ts");
    const original = readFileSync(handlersFile, "utf8");
    try {
      writeFileSync(
        handlersFile,
        'import type { HelloHandlers } from "./mcp/index.js";\n\nexport const handlers: HelloHandlers = { tools: {} };\n',
      );
      const typecheck = script(app, "typecheck");
      expect(typecheck.status).not.toBe(0);
      expect(typecheck.stdout).toMatch(/src\/handlers\.ts\(3,\d+\): error TS2741: Property 'greet' is missing/);
      // tsc reports the error and still emits (noEmitOnError is off): the refusal at start is the second line.
      expect(script(app, "build").status).not.toBe(0);
      const started = run(npm, ["start", "-s"], app, { input: `${JSON.stringify(initialize)}\n` });
      expect(started.status).toBe(1);
      expect(started.stdout).toBe("");
      expect(started.stderr).toBe('hello: handlers missing for tool "greet"\n');
    } finally {
      writeFileSync(handlersFile, original);
    }
  }, 300_000);

  it("an argument whose type changes in the manifest makes check stale and, after generate, typecheck fail", () => {
    const manifestFile = join(app, "mcp.yaml");
    const original = readFileSync(manifestFile, "utf8");
    try {
      expect(original).toContain("name: { type: string, minLength: 1 }");
      writeFileSync(manifestFile, original.replace("name: { type: string, minLength: 1 }", "name: { type: integer }"));
      expect(script(app, "check").status).toBe(1);
      succeeded(script(app, "generate"), "npm run generate");
      const typecheck = script(app, "typecheck");
      expect(typecheck.status).not.toBe(0);
      expect(typecheck.stdout).toMatch(
        /test\/server\.test\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
      );
    } finally {
      writeFileSync(manifestFile, original);
      succeeded(script(app, "generate"), "npm run generate");
    }
  }, 300_000);

  it("--http: the project passes its scripts, its Dockerfile matches it, and a production install serves HTTP", async () => {
    succeeded(script(api, "generate"), "npm run generate");
    succeeded(script(api, "typecheck"), "npm run typecheck");
    const tested = succeeded(script(api, "test"), "npm test");
    expect(tested.stdout).toMatch(/^ok 2 - greet, over HTTP from the server process$/m);
    succeeded(script(api, "build"), "npm run build");
    checkDockerfile(api);

    const production = productionCopy(api, join(work, "api-production"));
    const { server, url } = await startHttp(production, { PORT: "0" });
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const answer = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(initialize),
      });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      const body = (answer.headers.get("content-type") ?? "").includes("text/event-stream")
        ? JSON.parse(/^data: (.*)$/m.exec(text)![1]!)
        : JSON.parse(text);
      expect(body).toMatchObject({ id: 1, result: { serverInfo: { name: "api", version: "0.1.0" } } });

      // A second server on the same port: one line, exit 1, no stack trace.
      const taken = run(npm, ["start", "-s"], production, { env: { PORT: new URL(url).port } });
      expect(taken.status).toBe(1);
      expect(taken.stderr).toBe(`api: port ${new URL(url).port} is in use (EADDRINUSE on 127.0.0.1)\n`);
    } finally {
      server.kill("SIGTERM");
      if (server.exitCode === null) await once(server, "exit");
    }
  }, 600_000);
});
