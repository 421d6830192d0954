#!/usr/bin/env node
// The command line: the only module that prints and decides exit codes.
// 0 = done, 1 = invalid input or stale output, 2 = usage error.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { err, formatDiagnostic, jsonDiagnostic, out, type Diagnostic } from "./diagnostics.js";
import { packageRoot } from "./load/revisions.js";
import type { Argv, Options } from "yargs";
import { remember as rememberRun, unchangedRun, type RunKey } from "./memo.js";
import { terminalProgress } from "./progress.js";
import type { FileStatus } from "./write.js";
import { importCommand } from "./import/command.js";
// The generator proper (load, validate, model, emit) loads only when a run needs it: an
// unchanged project is recognised from its run record without it. yargs too: a plain
// `mcp-gen [generate] [manifest] [options]` is read without it (see plainGenerateArgs).

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/** The generate command's arguments: the manifest and each of generateOptions under its camelCase name. */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
type GenerateArgs = { manifest: string } & {
  [Flag in keyof typeof generateOptions as CamelCase<Flag>]: (typeof generateOptions)[Flag]["type"] extends "string"
    ? string | undefined
    : boolean;
};

/** The last line of a generate run: `changed` lists the files that differed from the disk. */
function summary(args: GenerateArgs, outDir: string, total: number, changed: readonly string[]): string {
  const folder = relative(process.cwd(), outDir) || ".";
  if (args.dryRun) return `(dry run: ${changed.length} file(s) would change, nothing written)`;
  if (args.check) return `mcp-gen: ${total} file(s) up to date in ${folder}`;
  if (changed.length === 0) return `mcp-gen: ${total} file(s) already up to date in ${folder}`;
  return `mcp-gen: wrote ${changed.join(", ")} in ${folder}`;
}

/**
 * `--json`: the whole outcome of a generate run as one JSON document on stdout, and nothing
 * on stderr (diagnostics are in it). The exit code stays the same as without it.
 */
function printJson(
  ok: boolean,
  outDir: string | undefined,
  files: readonly FileStatus[],
  diagnostics: readonly Diagnostic[],
): void {
  const document = {
    ok,
    ...(outDir === undefined ? {} : { outDir: relative(process.cwd(), outDir) || "." }),
    files: files.map(({ path, status }) => ({ path, status })),
    diagnostics: diagnostics.map(jsonDiagnostic),
  };
  out(JSON.stringify(document, null, 2));
}

/** What a run's outcome depends on: its run record's key. */
const runKey = (args: GenerateArgs, version: string): RunKey => ({
  manifest: args.manifest,
  out: args.out,
  schema: args.schema,
  schemaDir: args.schemaDir,
  version,
});

/** The pipeline's options for a generate or watch run. */
const pipelineOptions = (
  { manifest, out, schema, schemaDir, allowOutside, strict }: GenerateArgs,
  version: string,
) => ({ manifest, out, schemaFile: schema, schemaDir, version, allowOutside, strict });

async function runGenerate(args: GenerateArgs): Promise<number> {
  const key = runKey(args, version());
  // A run that needed --allow-outside is neither answered from nor recorded in the run
  // memo, so the same run without the flag is refused rather than found up to date.
  // Runs with warnings are never recorded (see below), so an unchanged run has none to repeat.
  const unchanged = args.allowOutside ? undefined : unchangedRun(key);
  if (unchanged) {
    if (args.json)
      printJson(
        true,
        unchanged.outDir,
        unchanged.outputs.map((o) => ({
          path: relative(unchanged.outDir, o.path).split("\\").join("/"),
          status: "unchanged",
        })),
        [],
      );
    else if (!args.quiet) out(summary(args, unchanged.outDir, unchanged.outputs.length, []));
    return 0;
  }
  const progress = terminalProgress(process.stderr, !args.quiet && !args.json);
  // Diagnostics go to stderr, or into the JSON document.
  const report = (
    ok: boolean,
    diagnostics: readonly Diagnostic[],
    outDir?: string,
    files: readonly FileStatus[] = [],
  ) => {
    progress.clear();
    if (args.json) printJson(ok, outDir, files, diagnostics);
    else for (const diagnostic of diagnostics) err(formatDiagnostic(diagnostic));
  };
  const { generate } = await import("./pipeline.js");
  const { compareOutput, writeOutput } = await import("./write.js");
  const result = await generate({ ...pipelineOptions(args, key.version), onPhase: (what) => progress.update(what) });
  if (!result.ok) {
    report(false, result.diagnostics);
    return 1;
  }
  const { generated, warnings } = result;
  progress.update(
    `${args.check || args.dryRun ? "comparing" : "writing"} ${generated.files.size} files in ${generated.outDisplay}`,
  );
  const comparison = args.check || args.dryRun ? compareOutput(generated) : writeOutput(generated);
  if (!comparison.ok) {
    report(false, [...warnings, ...comparison.diagnostics], generated.outDir);
    return 1;
  }
  const { statuses } = comparison;
  const different = statuses.filter((s) => s.status !== "unchanged");
  const stale = args.check && different.length > 0;
  report(!stale, warnings, generated.outDir, statuses);
  if (!args.json && (args.check || args.dryRun)) {
    for (const s of different) {
      const path = relative(process.cwd(), join(generated.outDir, s.path)) || s.path;
      (args.check ? err : out)(`${path}: ${s.status === "obsolete" ? "no longer generated" : s.status}`);
    }
  }
  if (stale) {
    if (!args.json) err(`${different.length} generated file(s) out of date; run \`mcp-gen generate ${args.manifest}\``);
    return 1;
  }
  // A run with warnings is not remembered: the next run prints them again instead of
  // answering "up to date" in silence.
  if (!args.dryRun && !args.allowOutside && warnings.length === 0) rememberRun(key, generated);
  if (!args.quiet && !args.json)
    out(
      summary(
        args,
        generated.outDir,
        statuses.length,
        different.map((s) => s.path),
      ),
    );
  return 0;
}

/**
 * `--watch`: a run now and after every change of its inputs, until SIGINT/SIGTERM (exit 0).
 * Each run prints one status line (stdout when it wrote, stderr after its diagnostics when it
 * failed); a failed run writes nothing, so the last good output stays, and watching goes on.
 * With `--run`, the command starts after the first good run and lives as long as the watch:
 * its exit ends the watch (with its exit code), and the watch's end stops it.
 */
async function runWatch(args: GenerateArgs): Promise<number> {
  const { generate } = await import("./pipeline.js");
  const { writeOutput } = await import("./write.js");
  const { describeChanges, watchInputs } = await import("./watch.js");
  const { startCompanion } = await import("./companion.js");
  const stopped = new AbortController();
  let companion: ReturnType<typeof startCompanion> | undefined;
  let exitCode = 0;
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopped.abort());
  const manifestPath = resolve(args.manifest);
  const shown = (path: string) => relative(process.cwd(), path) || path;
  const runVersion = version();
  // The hint is for a person at a terminal; piped, only the status lines appear.
  let hinted = !process.stdout.isTTY || args.quiet;
  await watchInputs({
    initialInputs: [manifestPath],
    run: async (changed) => {
      const started = performance.now();
      const prefix = () => {
        const time = new Date().toTimeString().slice(0, 8);
        const cause = changed.length === 0 ? "start" : `${describeChanges(changed, shown)} changed`;
        return `[${time}] ${cause}:`;
      };
      const took = () => `(${Math.round(performance.now() - started)} ms)`;
      const failed = (diagnostics: readonly Parameters<typeof formatDiagnostic>[0][], inputs: readonly string[]) => {
        for (const diagnostic of diagnostics) err(formatDiagnostic(diagnostic));
        const errors = diagnostics.length;
        err(`${prefix()} ${errors} error(s), nothing written; the last good output stays ${took()}`);
        // Files named in the diagnostics are inputs too (a referenced schema that does not parse),
        // and so are files the run could not read: watched through their folder, so creating one
        // runs again. A folder that does not exist cannot be watched; its file is left out.
        const named = diagnostics.map((d) => resolve(d.location.file));
        return {
          inputs: [manifestPath, ...[...inputs, ...named].filter((path) => existsSync(dirname(path)))],
          failed: true,
        };
      };
      const result = await generate(pipelineOptions(args, runVersion));
      if (!result.ok) return failed(result.diagnostics, result.inputs ?? []);
      const { generated, warnings } = result;
      for (const diagnostic of warnings) err(formatDiagnostic(diagnostic));
      let comparison: ReturnType<typeof writeOutput>;
      try {
        comparison = writeOutput(generated);
      } catch (error) {
        // A file-system error (full disk, permissions) ends this run, not the watch.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === undefined) throw error;
        return failed(
          [
            {
              location: generated.outLocation,
              message: `cannot write the output folder (${code}: ${(error as Error).message})`,
            },
          ],
          generated.inputs,
        );
      }
      if (!comparison.ok) return failed(comparison.diagnostics, generated.inputs);
      if (!args.allowOutside && warnings.length === 0) rememberRun(runKey(args, runVersion), generated);
      if (args.run !== undefined && companion === undefined && !stopped.signal.aborted) {
        companion = startCompanion(args.run);
        void companion.exited.then((code) => {
          // Ended by the watch's own stop: the watch's exit code stands.
          if (stopped.signal.aborted) return;
          exitCode = code;
          stopped.abort();
        });
      }
      const written = comparison.statuses
        .filter((s) => s.status !== "unchanged")
        .map((s) => (s.status === "obsolete" ? `${s.path} (deleted)` : s.path));
      const folder = shown(generated.outDir) || ".";
      if (!args.quiet) {
        out(
          `mcp-gen: ${prefix()} ${written.length === 0 ? `${comparison.statuses.length} file(s) already up to date` : `wrote ${written.join(", ")}`} in ${folder} ${took()}`,
        );
      }
      return { inputs: generated.inputs, failed: false };
    },
    onWatching: (inputs) => {
      if (hinted) return;
      hinted = true;
      out(`mcp-gen: watching ${inputs.length} input file(s) for changes; Ctrl-C stops`);
    },
    onWatchError: (folder, error) =>
      err(`cannot watch ${shown(folder)} (${error.message}); trying again after the next run`),
    signal: stopped.signal,
  });
  await companion?.stop();
  return exitCode;
}

async function runInit(
  dir: string,
  name: string | undefined,
  http: boolean,
  schemaDir: string | undefined,
): Promise<number> {
  const { initHandlerBodies, initNamePattern, renderInit } = await import("./init.js");
  const target = resolve(dir);
  const serverName =
    name ??
    basename(target)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^[^a-z]+/, "");
  if (!initNamePattern.test(serverName)) {
    err(
      `cannot use ${JSON.stringify(serverName)} as a server name; pass --name with lower-case letters, digits and dashes`,
    );
    return 2;
  }
  const author = existsSync(join(target, "package.json"))
    ? undefined
    : (await import("./init-author.js")).knownAuthor(process.cwd());
  const files = renderInit(serverName, { http, author });
  // An existing package.json is the user's: keep it, but say what the project expects of it.
  if (existsSync(join(target, "package.json"))) {
    const wanted = JSON.parse(files.get("package.json")!) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    files.delete("package.json");
    const pkg = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as {
      type?: string;
      scripts?: Record<string, string>;
    };
    if (pkg.type !== "module")
      out('note: package.json has no "type": "module"; generated code is ESM (NodeNext), so add it or compile to ESM');
    const missing = Object.entries(wanted.scripts).filter(([script]) => pkg.scripts?.[script] === undefined);
    if (missing.length > 0)
      out(
        `note: package.json is kept; scripts it lacks: ${JSON.stringify(Object.fromEntries(missing))}; devDependencies: ${JSON.stringify(wanted.devDependencies)}`,
      );
  }
  // src/handlers.ts is written by scaffold from the manifest, after the templates.
  const existing = [...files.keys(), "src/handlers.ts"].filter((path) => existsSync(join(target, path)));
  if (existing.length > 0) {
    for (const path of existing)
      err(`${relative(process.cwd(), join(target, path)) || path}: already exists; init never overwrites files`);
    return 1;
  }
  for (const [path, text] of files) {
    mkdirSync(dirname(join(target, path)), { recursive: true });
    writeFileSync(join(target, path), text);
    out(`created ${relative(process.cwd(), join(target, path))}`);
  }
  // Only a stdio project is bundled (an HTTP one ships as a container or a remote in server.json).
  if (!http && files.has("package.json") && author === undefined) {
    out(
      'note: package.json names no author (npm\'s init-author-name and git\'s user.name are unset); `mcp-gen pack` needs one for the .mcpb bundle: add "author": "Your Name <you@example.com>"',
    );
  }
  const { runScaffold } = await import("./scaffold/run.js");
  const scaffolded = await runScaffold({
    manifest: join(target, "mcp.yaml"),
    check: false,
    bodies: initHandlerBodies,
    quiet: true,
  });
  if (scaffolded !== 0) return scaffolded;
  const pinned = (await import("./schemas/run.js")).pinInitSchemas(join(target, "mcp.yaml"), schemaDir);
  // mcp-gen is not on the registry yet: it installs from a packed tarball or a checkout
  // (docs/getting-started.md); that install brings the devDependencies package.json lists.
  const cd = relative(process.cwd(), target);
  out(
    `next: ${cd === "" ? "" : `cd ${cd} && `}npm install -D <mcp-gen tarball or checkout> && npm install <@mcp-gen/runtime tarball or checkout/runtime> && ${pinned ? "" : "npx mcp-gen schema fetch && "}npm run generate && npm test && npm run build && npm start`,
  );
  return 0;
}

/** `docs`: the catalog page, written atomically as <output>/index.html (only over a page mcp-gen docs wrote). */
async function runDocs(args: {
  manifest: string;
  output: string;
  serverUrl?: string | undefined;
  quiet: boolean;
}): Promise<number> {
  const { docsMarker, renderDocs } = await import("./docs/render.js");
  const { replaceFile } = await import("./write.js");
  const progress = terminalProgress(process.stderr, !args.quiet);
  const result = renderDocs({
    manifest: args.manifest,
    serverUrl: args.serverUrl,
    version: version(),
    onPhase: (what) => progress.update(what),
  });
  progress.clear();
  if (!result.ok) {
    for (const diagnostic of result.diagnostics) err(formatDiagnostic(diagnostic));
    return 1;
  }
  for (const diagnostic of result.warnings) err(formatDiagnostic(diagnostic));
  const target = join(resolve(args.output), "index.html");
  const shown = relative(process.cwd(), target) || target;
  let existing: string | undefined;
  try {
    existing = readFileSync(target, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (existing !== undefined && existing.trim() !== "" && !existing.startsWith(docsMarker)) {
    err(
      `${shown}: was not written by mcp-gen docs; it changed nothing: move that file away or choose another --output folder`,
    );
    return 1;
  }
  if (existing !== result.html) {
    mkdirSync(dirname(target), { recursive: true });
    replaceFile(target, result.html);
  }
  if (!args.quiet) out(`mcp-gen: ${existing === result.html ? `${shown} already up to date` : `wrote ${shown}`}`);
  return 0;
}

/**
 * The generate command's options: yargs reads them, and so does plainGenerateArgs, which
 * stores each under its name in camelCase (`--dry-run` → dryRun).
 */
const generateOptions = {
  out: { type: "string", describe: "output folder (overrides the manifest's `output`)" },
  schema: { type: "string", describe: "protocol schema.json to use (one revision only)" },
  "schema-dir": {
    type: "string",
    describe:
      "folder holding <revision>/schema.json (default: $MCP_GEN_SCHEMA_DIR, then the manifest's protocolSchemas, then the cache)",
  },
  check: {
    type: "boolean",
    default: false,
    describe: "write nothing; exit 1 and list files that are stale or missing",
  },
  "dry-run": { type: "boolean", default: false, describe: "write nothing; list the files that would change" },
  "allow-outside": {
    type: "boolean",
    default: false,
    describe: "accept a manifest `output` outside the project root (the manifest's folder)",
  },
  quiet: { type: "boolean", alias: "q", default: false, describe: "print only errors and warnings" },
  strict: {
    type: "boolean",
    default: false,
    describe: "treat warnings (unknown schema keywords, tool names clients may refuse) as errors",
  },
  watch: {
    type: "boolean",
    alias: "w",
    default: false,
    describe: "keep running: regenerate when the manifest or a file it reads changes (Ctrl-C stops)",
  },
  run: {
    type: "string",
    describe:
      "with --watch: once the first generation succeeds, run this shell command alongside (a dev server, e.g. `tsx watch src/main.ts`); it ends with the watch, and the watch with it",
  },
  json: {
    type: "boolean",
    default: false,
    describe: "print the outcome (files and their status, diagnostics) as one JSON document on stdout",
  },
} as const satisfies Record<string, Options>;

/** The generate options as written on the command line (`--schema-dir`, `-q`): argument name, and whether a value follows. */
const plainOptions = new Map<string, { name: string; takesValue: boolean }>();
for (const [flag, option] of Object.entries(generateOptions)) {
  const name = flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const entry = { name, takesValue: option.type === "string" };
  plainOptions.set(`--${flag}`, entry);
  if ("alias" in option) plainOptions.set(`-${option.alias}`, entry);
}

/** Words that name a command rather than a manifest. */
const commandNames = ["generate", "init", "schema", "pull", "diff", "scaffold", "docs", "pack", "import"];

/**
 * The arguments of the everyday invocation, `mcp-gen [generate] [manifest]` followed by
 * known options each written once in their plain form (`--out dir`, `-q`), read without
 * loading yargs (about a tenth of a cold run). Anything else (help, other commands, `--out=x`,
 * a repeated option, a value that looks like an option, a usage error) returns undefined
 * and goes to yargs, so every message and unusual form stays yargs'.
 */
function plainGenerateArgs(argv: readonly string[]): GenerateArgs | undefined {
  // Flags start false, values undefined: either way a second occurrence is recognised.
  const args: Record<string, string | boolean | undefined> = {};
  for (const { name, takesValue } of plainOptions.values()) if (!takesValue) args[name] = false;
  for (let i = argv[0] === "generate" ? 1 : 0; i < argv.length; i++) {
    const token = argv[i]!;
    const option = plainOptions.get(token);
    if (option?.takesValue) {
      const value = argv[i + 1];
      if (args[option.name] !== undefined || value === undefined || value === "" || value.startsWith("-"))
        return undefined;
      args[option.name] = value;
      i++;
    } else if (option) {
      if (args[option.name] === true) return undefined;
      args[option.name] = true;
    } else if (args.manifest === undefined && token !== "" && !token.startsWith("-") && !commandNames.includes(token)) {
      args.manifest = token;
    } else {
      return undefined;
    }
  }
  if (args.check && args.dryRun) return undefined;
  if (args.watch && (args.check || args.dryRun || args.json)) return undefined;
  if (args.run !== undefined && !args.watch) return undefined;
  return { ...args, manifest: args.manifest ?? "mcp.yaml" } as GenerateArgs;
}

/**
 * A command's handler only chooses what to run (its action); main runs it after parsing, once
 * yargs has found no usage error.
 */
type Action = () => Promise<number> | number;
type Choose = (action: Action) => void;

/** `mcp-gen [generate] [manifest]`, the default command (the plain form skips yargs: plainGenerateArgs). */
function generateCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    ["generate [manifest]", "$0 [manifest]"],
    "Generate code from a manifest (default ./mcp.yaml)",
    (y) =>
      y
        .positional("manifest", { type: "string", default: "mcp.yaml", describe: "path of the manifest" })
        .options(generateOptions)
        .example("$0 generate", "./mcp.yaml into its `output` folder")
        .example(
          "$0 generate api/mcp.yaml --out src/mcp --schema-dir ../mcp-schema",
          "another manifest, output folder and schema folder",
        )
        .example("$0 generate --check --json", "CI: exit 1 when stale, the status of every file as JSON")
        .check((a) => {
          if (a.check && a.dryRun) throw new Error("--check and --dry-run cannot be combined");
          if (a.watch && (a.check || a.dryRun || a.json))
            throw new Error(
              `--watch writes on every change; it cannot be combined with ${a.check ? "--check" : a.dryRun ? "--dry-run" : "--json"}`,
            );
          if (a.run !== undefined && !a.watch) throw new Error("--run starts a command beside --watch; add --watch");
          for (const [name, option] of Object.entries(generateOptions)) {
            const repeated = option.type === "string" && Array.isArray((a as Record<string, unknown>)[name]);
            if (repeated) throw new Error(`--${name} given more than once; give it once`);
          }
          return true;
        }),
    (a) => {
      choose(() => (a.watch ? runWatch(a) : runGenerate(a)));
    },
  );
}

/** `mcp-gen init [dir]`: a new project. */
function initCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    "init [dir]",
    "Start a project: mcp.yaml, src/ (handlers, entry point), a test, tsconfig.json and package.json scripts (never overwrites)",
    (y) =>
      y
        .positional("dir", { type: "string", default: "." })
        .option("name", { type: "string", describe: "server name (default: the folder name)" })
        .option("http", {
          type: "boolean",
          default: false,
          describe: "an HTTP-first project: `npm start` serves Streamable HTTP on $PORT, and a Dockerfile",
        })
        .option("schema-dir", {
          type: "string",
          describe:
            "copy the protocol schemas into the project's ./mcp-schema from here (default: $MCP_GEN_SCHEMA_DIR, then the cache)",
        })
        .example("$0 init", "a project in the current folder, named after it")
        .example("$0 init weather-server --name weather", "a project in ./weather-server")
        .example("$0 init api --http", "a project served over HTTP, with a Dockerfile"),
    (a) => {
      choose(() => runInit(a.dir, a.name, a.http, a.schemaDir));
    },
  );
}

/** `mcp-gen scaffold [manifest]`: stubs for the handlers a manifest declares and the handlers file lacks. */
function scaffoldCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    "scaffold [manifest]",
    "Add a typed stub to the handlers file for every tool, resource, template and prompt without a handler (touches nothing else)",
    (y) =>
      y
        .positional("manifest", { type: "string", default: "mcp.yaml", describe: "path of the manifest" })
        .option("handlers", {
          type: "string",
          describe:
            "handlers file (default: handlers.ts beside the output folder, src/handlers.ts for `output: ./src/mcp`)",
        })
        .option("check", {
          type: "boolean",
          default: false,
          describe: "write nothing; exit 1 and list the handlers that are missing",
        })
        .option("quiet", { alias: "q", type: "boolean", default: false, describe: "print only errors and warnings" })
        .example("$0 scaffold", "stubs in src/handlers.ts for what mcp.yaml declares and it does not handle yet")
        .example(
          "$0 scaffold mcp.yaml --handlers lib/server.ts --check",
          "CI: exit 1 while a declaration has no handler",
        ),
    (a) => {
      choose(async () =>
        (await import("./scaffold/run.js")).runScaffold({
          manifest: a.manifest,
          handlers: a.handlers,
          check: a.check,
          quiet: a.quiet,
        }),
      );
    },
  );
}

/** `mcp-gen pull`: a client manifest from a live server. */
function pullCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    "pull",
    "Write a client manifest (generate.server: false) for a live server, or --check that one still matches it",
    (y) =>
      y
        .option("stdio", {
          type: "string",
          describe: "command that starts the server on its stdio (no shell; quotes group words)",
        })
        .option("url", { type: "string", describe: "Streamable HTTP endpoint of the server" })
        .option("output", {
          alias: "o",
          type: "string",
          default: "mcp.yaml",
          describe: "manifest to write (or, with --check, to compare)",
        })
        .option("check", {
          type: "boolean",
          default: false,
          describe: "write nothing; exit 1 when the manifest no longer matches the server",
        })
        .option("timeout", { type: "number", default: 30_000, describe: "milliseconds to wait for each answer" })
        .option("schema-dir", {
          type: "string",
          describe:
            "folder of protocol schemas (<dir>/<revision>/schema.json; default: $MCP_GEN_SCHEMA_DIR, then the written manifest's protocolSchemas, then the cache)",
        })
        .option("quiet", { alias: "q", type: "boolean", default: false, describe: "no summary line" })
        .option("json", {
          type: "boolean",
          default: false,
          describe: "one JSON document on stdout: the counts written, or with --check { matches, differences }",
        })
        .example(
          '$0 pull --stdio "npx -y @modelcontextprotocol/server-memory" -o memory.yaml',
          "a manifest for a stdio server",
        )
        .example("$0 pull --url http://127.0.0.1:3000/mcp", "a manifest for a server over Streamable HTTP")
        .example("$0 pull --url http://127.0.0.1:3000/mcp --check", "CI: fail when the server's tools changed")
        .check((a) => {
          if ((a.stdio === undefined) === (a.url === undefined))
            throw new Error("give exactly one of --stdio and --url");
          if (!(a.timeout > 0)) throw new Error("--timeout must be a positive number of milliseconds");
          return true;
        }),
    (a) => {
      choose(async () =>
        (await import("./pull/run.js")).runPull({
          stdio: a.stdio,
          url: a.url,
          output: a.output,
          check: a.check,
          timeout: a.timeout,
          schemaDir: a.schemaDir,
          quiet: a.quiet,
          json: a.json,
        }),
      );
    },
  );
}

/** `mcp-gen docs [manifest]`: the HTML catalog page. */
function docsCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    "docs [manifest]",
    "Write a self-contained HTML catalog of the server (tools with their schemas, resources, templates, prompts)",
    (y) =>
      y
        .positional("manifest", { type: "string", default: "mcp.yaml", describe: "path of the manifest" })
        .option("output", { alias: "o", type: "string", default: "site/", describe: "folder of the page (index.html)" })
        .option("server-url", {
          type: "string",
          describe: 'add a "try it" panel calling this Streamable HTTP endpoint (editable in the page)',
        })
        .option("quiet", { alias: "q", type: "boolean", default: false, describe: "print only errors and warnings" })
        .example("$0 docs", "site/index.html from ./mcp.yaml")
        .example("$0 docs mcp.yaml -o public/ --server-url http://127.0.0.1:3000/mcp", 'with a "try it" form per tool')
        .check((a) => {
          const url: unknown = a.serverUrl;
          if (url !== undefined && (typeof url !== "string" || !/^https?:\/\/\S+$/.test(url)))
            throw new Error("--server-url must be one http:// or https:// URL");
          return true;
        }),
    (a) => {
      choose(() => runDocs({ manifest: a.manifest, output: a.output, serverUrl: a.serverUrl, quiet: a.quiet }));
    },
  );
}

/** `mcp-gen pack [manifest]`: the .mcpb bundle and server.json. */
function packCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    "pack [manifest]",
    "Ship a stdio server: its entry bundled into one file inside an .mcpb bundle (MCP Bundle), and/or server.json for the MCP Registry",
    (y) =>
      y
        .positional("manifest", { type: "string", default: "mcp.yaml", describe: "path of the manifest" })
        .option("out", { alias: "o", type: "string", describe: "output folder (default: dist/ beside the manifest)" })
        .option("entry", {
          type: "string",
          describe: "the file that starts the server (default: src/main.ts beside the manifest)",
        })
        .option("mcpb", {
          type: "boolean",
          default: true,
          describe: "write <name>-<version>.mcpb (--no-mcpb: server.json only)",
        })
        .option("server-json", {
          type: "boolean",
          default: false,
          describe: "also write server.json for the MCP Registry (name from package.json's mcpName)",
        })
        .option("remote", {
          type: "string",
          describe: "server.json: the deployed Streamable HTTP endpoint (https://…/mcp), listed under remotes",
        })
        .option("mcpb-url", {
          type: "string",
          describe: "server.json: where the .mcpb will be downloadable (a release asset), listed with its sha256",
        })
        .option("quiet", { alias: "q", type: "boolean", default: false, describe: "print only errors and warnings" })
        .option("json", {
          type: "boolean",
          default: false,
          describe: "print the outcome (files with size and sha256, diagnostics) as one JSON document on stdout",
        })
        .example("$0 pack", "dist/<name>-<version>.mcpb from ./mcp.yaml and src/main.ts")
        .example(
          "$0 pack --server-json --mcpb-url https://github.com/me/weather/releases/download/v1.0.0/weather-1.0.0.mcpb",
          "the bundle, and server.json listing the npm package and the bundle",
        )
        .example(
          "$0 pack --no-mcpb --remote https://weather.example.com/mcp",
          "server.json for a server deployed over HTTP",
        )
        .check((a) => {
          for (const name of ["out", "entry", "remote", "mcpb-url"]) {
            if (Array.isArray((a as Record<string, unknown>)[name]))
              throw new Error(`--${name} given more than once; give it once`);
          }
          const webUrl = (url: unknown) =>
            typeof url === "string" &&
            (/^https:\/\/\S+$/.test(url) || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\/\S*$/.test(url));
          for (const [flag, url] of [
            ["--remote", a.remote as unknown],
            ["--mcpb-url", a.mcpbUrl as unknown],
          ] as const) {
            if (url !== undefined && !webUrl(url))
              throw new Error(`${flag} must be one https:// URL (http:// only on localhost)`);
          }
          if (a.mcpbUrl !== undefined && !a.mcpb)
            throw new Error("--mcpb-url lists the bundle this run writes; it cannot be combined with --no-mcpb");
          if (!a.mcpb && !a.serverJson && a.remote === undefined)
            throw new Error("--no-mcpb leaves nothing to write; add --server-json or --remote <url>");
          return true;
        }),
    (a) => {
      choose(async () =>
        (await import("./pack/run.js")).runPack({
          manifest: a.manifest,
          out: a.out,
          entry: a.entry,
          mcpb: a.mcpb,
          serverJson: a.serverJson,
          remote: a.remote,
          mcpbUrl: a.mcpbUrl,
          quiet: a.quiet,
          json: a.json,
        }),
      );
    },
  );
}

/** `mcp-gen diff <old> <new> [manifest]`: what a protocol revision bump changes. */
function diffCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    "diff <old> <new> [manifest]",
    "What a protocol revision bump changes: methods, types field by field, and the manifest's generated signatures (default ./mcp.yaml if present)",
    (y) =>
      y
        .positional("old", { type: "string", demandOption: true, describe: "the revision you have, e.g. 2025-11-25" })
        .positional("new", {
          type: "string",
          demandOption: true,
          describe: "the revision you move to, e.g. 2026-07-28",
        })
        .positional("manifest", {
          type: "string",
          describe: "manifest whose signatures to check (default ./mcp.yaml if present; else protocol only)",
        })
        .option("schema-dir", {
          type: "string",
          describe:
            "folder holding <revision>/schema.json (default: $MCP_GEN_SCHEMA_DIR, then the manifest's protocolSchemas, then the cache)",
        })
        .option("json", {
          type: "boolean",
          default: false,
          describe: "print one JSON document (sorted keys) instead of tables",
        })
        .option("descriptions", {
          type: "boolean",
          default: false,
          describe: "also list types whose descriptions alone changed",
        })
        .example("$0 diff 2025-11-25 2026-07-28", "what the 2026-07-28 bump changes, for ./mcp.yaml if there is one")
        .example("$0 diff 2025-06-18 2025-11-25 examples/weather/mcp.yaml --json", "the same as JSON, for tools"),
    (a) => {
      choose(async () =>
        (await import("./diff/run.js")).runDiff({
          from: a.old,
          to: a.new,
          manifest: a.manifest,
          schemaDir: a.schemaDir,
          json: a.json,
          descriptions: a.descriptions,
        }),
      );
    },
  );
}

/** `mcp-gen schema fetch|list`: the protocol schemas. */
function schemaCommand(y: Argv, choose: Choose): Argv {
  return y.command(
    "schema <action> [revisions..]",
    "Manage protocol schemas: `fetch [revision..]` downloads (or copies --from a folder) and verifies them into the manifest's `protocolSchemas` folder, else the cache; `list` shows where each is found",
    (y) =>
      y
        .positional("action", { choices: ["fetch", "list"] as const, demandOption: true })
        .positional("revisions", { type: "string", array: true, default: [] as string[] })
        .option("manifest", {
          type: "string",
          describe: "manifest whose `protocol` and `protocolSchemas` apply (default ./mcp.yaml if present)",
        })
        .option("from", {
          type: "string",
          describe:
            "fetch: copy from this folder holding <revision>/schema.json instead of downloading (offline; same sha256 check)",
        })
        .option("schema-dir", { type: "string", describe: "list: look here first" })
        .option("json", {
          type: "boolean",
          default: false,
          describe: "list: one JSON array of { revision, era, dialect, file, from } (file null when not found)",
        })
        .example(
          "$0 schema fetch",
          "the revisions ./mcp.yaml targets into its protocolSchemas folder (else every known revision into the cache), sha256 verified",
        )
        .example("$0 schema fetch --from ../mcp-schema", "the same without the internet, from a local copy")
        .example("$0 schema fetch 2026-07-28", "just one revision")
        .example("$0 schema list --schema-dir ../mcp-schema", "which schema.json each revision would use")
        .check((a) => {
          if (a.action === "list" && a.from !== undefined) throw new Error("--from is for schema fetch");
          if (a.action === "fetch" && a.schemaDir !== undefined)
            throw new Error(
              "schema fetch writes into the manifest's protocolSchemas folder or the cache; to copy from a folder, use --from",
            );
          return true;
        }),
    (a) => {
      choose(async () => {
        const { runSchemaFetch, runSchemaList } = await import("./schemas/run.js");
        return a.action === "fetch"
          ? runSchemaFetch({ revisions: a.revisions, manifest: a.manifest, from: a.from })
          : runSchemaList({ schemaDir: a.schemaDir, manifest: a.manifest, json: a.json });
      });
    },
  );
}

/** Every command but the default one's plain form, in the order `--help` lists them. */
/** `mcp-gen import openapi <source>`: defined in import/command.ts, beside the importer it starts. */
function importOpenApiCommand(y: Argv, choose: Choose): Argv {
  return y.command(importCommand(choose, version));
}

const commands = [
  generateCommand,
  initCommand,
  scaffoldCommand,
  pullCommand,
  docsCommand,
  packCommand,
  diffCommand,
  schemaCommand,
  importOpenApiCommand,
];

export async function main(argv: string[]): Promise<number> {
  const plain = plainGenerateArgs(argv);
  if (plain !== undefined) return plain.watch ? runWatch(plain) : runGenerate(plain);
  const { default: yargs } = await import("yargs");
  let action: Action | undefined;
  let usageError: string | undefined;
  const choose: Choose = (chosen) => {
    action = chosen;
  };
  const base = yargs(argv)
    .scriptName("mcp-gen")
    .usage("$0 [generate] [manifest]: generate a typed MCP server and client from an mcp.yaml manifest");
  await commands
    .reduce((parser, command) => command(parser, choose), base)
    .example("$0", "generate from ./mcp.yaml into its `output` folder")
    .example("$0 --check", "exit 1 when the generated files are stale (CI)")
    .example(
      "$0 mcp.yaml --watch",
      "regenerate whenever mcp.yaml or a schema, page or protocol schema it reads changes",
    )
    .strict()
    .version(version())
    .help()
    .alias("h", "help")
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      // Usage problems (unknown options, failed checks) come with a message; a failure
      // without one is an error thrown by a command handler, that is a bug.
      if (!message) throw error;
      usageError = message;
    })
    .parseAsync();
  if (usageError !== undefined) {
    err(`${usageError} (see mcp-gen --help)`);
    return 2;
  }
  return action ? await action() : 0;
}

// A reader that stops early (`mcp-gen diff … | head`) closes the pipe: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}

// process.argv without node and the script (what yargs' hideBin returns for a plain node run).
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Only a bug in mcp-gen gets here; user errors are diagnostics.
    err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    err("this is a bug in mcp-gen; please report it with the manifest that triggers it");
    process.exitCode = 70;
  },
);
