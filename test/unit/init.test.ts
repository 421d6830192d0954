// `mcp-gen init` scaffolds a complete project that generates, type-checks under its own strict
// tsconfig.json (sources and tests) and never overwrites. test/e2e/init-project.test.ts
// installs such a project from the packed tarballs and runs its scripts.
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { devNull } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";

/** A fresh folder with mcp-gen and @mcp-gen/runtime installed as in a user's project (links into this checkout). */
function installedProject(files: Record<string, string> = {}): string {
  const dir = tempProject(files);
  mkdirSync(join(dir, "node_modules", "@mcp-gen"), { recursive: true });
  symlinkSync(repoRoot, join(dir, "node_modules", "mcp-gen"), "dir");
  symlinkSync(join(repoRoot, "runtime"), join(dir, "node_modules", "@mcp-gen", "runtime"), "dir");
  return dir;
}

/** The project's files, sorted, without node_modules. */
function projectFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes("node_modules"))
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** Diagnostics of `tsc -p <config>` (what `npm run typecheck` runs), as "file:line: message". */
function typecheckProject(config: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    },
  );
  if (!parsed) throw new Error(`${config}: not read`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
        : "";
    return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
}

/**
 * The environment of an init whose machine knows only what is given: npm's init-author-*
 * settings (`npm_config_init_author_name`, …) and git's settings as a gitconfig file's text;
 * nothing of this user's npm or git configuration, nor the repository the test runs in.
 */
function authorEnv(npm: Record<string, string>, gitconfig = ""): Record<string, string> {
  const home = tempProject({ gitconfig });
  return {
    NPM_CONFIG_USERCONFIG: devNull,
    ...npm,
    GIT_CONFIG_GLOBAL: join(home, "gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CEILING_DIRECTORIES: join(repoRoot, "test", ".tmp"),
  };
}

const revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const ownPackage = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};

describe("mcp-gen init", () => {
  it("creates a project whose sources and tests generate and type-check under its own strict tsconfig.json", () => {
    const dir = installedProject();
    const init = runCli(
      ["init", ".", "--name", "hello-mcp"],
      dir,
      authorEnv(
        { npm_config_init_author_name: "Ada Lovelace", npm_config_init_author_email: "ada@example.com" },
        "[user]\n\tname = Not Read\n",
      ),
    );
    expect(init.stderr).toBe("");
    expect(init.stdout).not.toContain("note:");
    expect(init.status).toBe(0);
    // The test run's MCP_GEN_SCHEMA_DIR holds every revision: init pins them all.
    expect(projectFiles(dir)).toEqual([
      ".gitignore",
      ...revisions.map((r) => `mcp-schema/${r}/schema.json`),
      "mcp.yaml",
      "package.json",
      "src/handlers.ts",
      "src/main.ts",
      "test/server.test.ts",
      "test/tsconfig.json",
      "tsconfig.json",
    ]);
    expect(init.stdout.trim().split("\n").at(-1)).toBe(
      "next: npm install -D <mcp-gen tarball or checkout> && npm install <@mcp-gen/runtime tarball or checkout/runtime> && npm run generate && npm test && npm run build && npm start",
    );
    // What `mcp-gen pack` reads from mcp.yaml (name, version, description) and package.json (author).
    expect(readFileSync(join(dir, "mcp.yaml"), "utf8")).toContain('  name: "hello-mcp"\n  version: 0.1.0\n');
    expect(readFileSync(join(dir, "mcp.yaml"), "utf8")).toContain('  description: "The hello-mcp MCP server"\n');
    expect(readFileSync(join(dir, "src", "main.ts"), "utf8")).toContain("createHelloServer(handlers)");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules/\ndist/\n");

    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      type: string;
      scripts: Record<string, string>;
      dependencies?: unknown;
      devDependencies: Record<string, string>;
      allowScripts: unknown;
    };
    expect(pkg).toMatchObject({
      name: "hello-mcp",
      version: "0.1.0",
      description: "The hello-mcp MCP server",
      author: "Ada Lovelace <ada@example.com>",
      type: "module",
    });
    expect(Object.keys(pkg.scripts)).toEqual([
      "generate",
      "check",
      "typecheck",
      "build",
      "start",
      "dev",
      "test",
      "bundle",
    ]);
    expect(pkg.scripts.start).toBe("node dist/main.js");
    expect(pkg.scripts.bundle).toBe("mcp-gen --check && tsc --noEmit && mcp-gen pack");
    // The tools are pinned to what mcp-gen is tested with; mcp-gen and the runtime come from their own install.
    const pinned = (...tools: string[]) =>
      Object.fromEntries(tools.map((tool) => [tool, ownPackage.devDependencies[tool]]));
    expect(pkg.devDependencies).toEqual(pinned("@types/node", "esbuild", "tsx", "typescript"));
    // esbuild works without its postinstall (which only checks its binary): npm runs it not, nor warns.
    expect(pkg.allowScripts).toEqual({ esbuild: false });
    expect(pkg.dependencies).toBeUndefined();

    const { compilerOptions } = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(compilerOptions).toMatchObject({
      module: "NodeNext",
      moduleResolution: "NodeNext",
      types: ["node"],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      rootDir: "src",
      outDir: "dist",
    });

    expect(runCli(["generate"], dir).status).toBe(0);
    expect(typecheckProject(join(dir, "tsconfig.json"))).toEqual([]);
    expect(typecheckProject(join(dir, "test", "tsconfig.json"))).toEqual([]);
  });

  it("--http: the server listens on HTTP by default, and a Dockerfile comes with it", () => {
    const dir = installedProject();
    const init = runCli(["init", "api", "--http"], dir);
    expect(init.status).toBe(0);
    const project = join(dir, "api");
    // Not bundled (pack refuses an entry that serves HTTP by default): no esbuild, no bundle script.
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.scripts.bundle).toBeUndefined();
    expect(Object.keys(pkg.devDependencies)).toEqual(["@types/node", "tsx", "typescript"]);
    expect(projectFiles(project)).toEqual([
      ".dockerignore",
      ".gitignore",
      "Dockerfile",
      ...revisions.map((r) => `mcp-schema/${r}/schema.json`),
      "mcp.yaml",
      "package.json",
      "src/handlers.ts",
      "src/main.ts",
      "test/server.test.ts",
      "test/tsconfig.json",
      "tsconfig.json",
    ]);
    expect(init.stdout.trim().split("\n").at(-1)).toMatch(/^next: cd api && npm install -D /);
    const main = readFileSync(join(project, "src", "main.ts"), "utf8");
    expect(main).toContain('if (args.includes("--stdio"))');
    expect(main).toContain('process.env.HOST ?? "127.0.0.1"');
    expect(readFileSync(join(project, "test", "server.test.ts"), "utf8")).toContain("httpChannel(url)");
    expect(readFileSync(join(project, "Dockerfile"), "utf8")).toContain('CMD ["node", "dist/main.js"]');
    // Without --http, neither file.
    const stdio = installedProject();
    expect(runCli(["init", ".", "--name", "local"], stdio).status).toBe(0);
    expect(projectFiles(stdio).filter((file) => /docker/i.test(file))).toEqual([]);

    expect(runCli(["generate"], project).status).toBe(0);
    expect(typecheckProject(join(project, "tsconfig.json"))).toEqual([]);
    expect(typecheckProject(join(project, "test", "tsconfig.json"))).toEqual([]);
  });

  it("takes the author from git when npm names none, and escapes it as data", () => {
    const dir = installedProject();
    const init = runCli(
      ["init", ".", "--name", "from-git"],
      dir,
      authorEnv({}, '[user]\n\tname = Grace \\"Amazing\\" Hopper\n\temail = grace@example.com\n'),
    );
    expect(init.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toMatchObject({
      author: 'Grace "Amazing" Hopper <grace@example.com>',
    });
  });

  it("with no author known, writes none, and init and pack both say what to add", () => {
    const dir = installedProject();
    const init = runCli(["init", ".", "--name", "anonymous"], dir, authorEnv({}));
    expect(init.status).toBe(0);
    expect(init.stdout).toContain(
      'note: package.json names no author (npm\'s init-author-name and git\'s user.name are unset); `mcp-gen pack` needs one for the .mcpb bundle: add "author": "Your Name <you@example.com>"\n',
    );
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).not.toHaveProperty("author");
    expect(runCli(["generate"], dir).status).toBe(0);
    // The author is all pack misses in a fresh project.
    const packed = runCli(["pack"], dir);
    expect(packed.stderr).toBe(
      'mcp-gen: package.json: the .mcpb bundle needs an author: add "author": "Your Name <you@example.com>" to package.json\n',
    );
    expect(packed.status).toBe(1);
  });

  it("refuses to overwrite and exits 1, naming every file in the way", () => {
    const dir = tempProject({ "mcp.yaml": "mine\n", ".gitignore": "mine\n" });
    const run = runCli(["init", ".", "--name", "x"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "mcp-gen: .gitignore: already exists; init never overwrites files\nmcp-gen: mcp.yaml: already exists; init never overwrites files\n",
    );
    expect(readFileSync(join(dir, "mcp.yaml"), "utf8")).toBe("mine\n");
    expect(projectFiles(dir)).toEqual([".gitignore", "mcp.yaml"]);
  });

  it("keeps an existing package.json and says which scripts it lacks", () => {
    const dir = tempProject({
      "package.json": JSON.stringify({ name: "mine", type: "module", scripts: { test: "vitest" } }),
    });
    const run = runCli(["init", ".", "--name", "x"], dir);
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toEqual({
      name: "mine",
      type: "module",
      scripts: { test: "vitest" },
    });
    expect(run.stdout).toContain(
      'note: package.json is kept; scripts it lacks: {"generate":"mcp-gen","check":"mcp-gen --check","typecheck":',
    );
    expect(run.stdout).not.toContain('"test":');
  });

  it("rejects names it cannot place safely (exit 2)", () => {
    const run = runCli(["init", ".", "--name", 'x"; rm -rf /'], tempProject());
    expect(run.status).toBe(2);
  });
});
