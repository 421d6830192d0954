// `mcp-gen scaffold` through the real CLI on a copy of the weather example: stubs for what the
// manifest declares and the handlers file lacks, every other byte as the user wrote it, a
// project that type-checks strictly, idempotent, and a --check gate.
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const example = join(repoRoot, "examples", "weather");

/** A copy of the weather example with two more declarations (names that need quotes and an `identifier:`), generated. */
function weatherProject(): string {
  const dir = tempProject({}, example);
  const manifest = readFileSync(join(dir, "mcp.yaml"), "utf8")
    .replace(
      "\ntools:\n",
      `\ntools:
  user-search:
    identifier: findUsers
    description: "Find users */ by name\\nsecond line"
    input:
      type: object
      properties:
        user-name: { type: string }
        delete: { type: boolean }
        limit: { type: integer }
      required: [user-name]
`,
    )
    .replace(
      "\nprompts:\n",
      "\nprompts:\n  review-code:\n    description: Review a file\n    arguments:\n      file-path: { required: true, complete: true }\n",
    );
  writeFileSync(join(dir, "mcp.yaml"), manifest);
  const generated = runCli(["mcp.yaml", "-q"], dir);
  expect(generated.stderr).toBe("");
  return dir;
}

const compile = (dir: string) =>
  formatTypeErrors(typecheck([join(dir, "src", "handlers.ts"), join(dir, "src", "main.ts")]));
/** The errors in `file` under --noUnusedParameters --noUnusedLocals (on top of the strict flags). */
const compileUnused = (file: string) =>
  formatTypeErrors(
    typecheck([file], { noUnusedParameters: true, noUnusedLocals: true }).filter((e) => e.file === file),
  );

/**
 * Every line of `before` appears in `after` in order, allowing a line to gain a comma after its
 * last entry (` },` → `,` where a one-line object is opened up); returns the lines added.
 */
function addedLines(before: string, after: string): string[] {
  const added: string[] = [];
  const rest = after.split("\n");
  for (const line of before.split("\n")) {
    const kept = [line, `${line},`, line.replace(/ \},$/, ",")];
    while (rest.length > 0 && !kept.includes(rest[0]!)) added.push(rest.shift()!);
    expect(rest.length, `line ${JSON.stringify(line)} kept`).toBeGreaterThan(0);
    rest.shift();
  }
  return [...added, ...rest];
}

describe("mcp-gen scaffold", () => {
  it("adds stubs for missing handlers only, keeps the rest byte for byte, compiles, and is idempotent", () => {
    const dir = weatherProject();
    const file = join(dir, "src", "handlers.ts");
    const original = readFileSync(file, "utf8");
    // The user's own layout: no trailing comma after the last tool, a comment before a closing
    // brace, single quotes, a handler no longer declared; listCities and the resources section gone.
    const edited = original
      .replace(/ {4}listCities\(\) \{\n.*\n {4}\},\n/, "")
      .replace(/( {6}return \{ structuredContent: result \};\n {4}\}),\n/, "$1\n    // more tools later ('soon')\n")
      .replace(/ {2}resources: \{\n[\s\S]*?\n {2}\},\n/, "")
      .replace("  prompts: {\n", "  prompts: {\n    oldPrompt() { return [] }, // kept\n");
    expect(edited).not.toBe(original);
    writeFileSync(file, edited);

    const check = runCli(["scaffold", "--check"], dir);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("src/handlers.ts: tools.findUsers (tool user-search) has no handler");
    expect(check.stderr).toContain("src/handlers.ts: tools.listCities (tool list_cities) has no handler");
    expect(check.stderr).toContain("5 handler(s) missing in src/handlers.ts");
    expect(readFileSync(file, "utf8")).toBe(edited);

    const run = runCli(["scaffold"], dir);
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n").filter(Boolean).sort()).toEqual([
      "src/handlers.ts: added completions.prompts.reviewCode.file-path (completer file-path of prompt review-code)",
      "src/handlers.ts: added prompts.reviewCode (prompt review-code)",
      "src/handlers.ts: added resources.appConfig (resource config://app)",
      "src/handlers.ts: added tools.findUsers (tool user-search)",
      "src/handlers.ts: added tools.listCities (tool list_cities)",
    ]);
    expect(run.stderr).toMatch(
      /^mcp-gen: src\/handlers\.ts:\d+:5: warning: handler prompts\.oldPrompt has no declaration in the manifest/m,
    );
    const after = readFileSync(file, "utf8");
    const added = addedLines(edited, after);
    expect(after).toContain(
      "      return { structuredContent: result };\n    },\n    // more tools later ('soon')\n    findUsers(",
    );
    // Stubs take no parameters (nothing unused under --noUnusedParameters) and say what they could take.
    expect(after).toContain(
      '    findUsers() {\n      // TODO tool user-search: Find users *\\/ by name\n      // Takes (args, ctx); args has "user-name", "delete", "limit".\n',
    );
    expect(after).toContain(
      '      return { content: [{ type: "text", text: "user-search is not implemented yet" }], isError: true };\n',
    );
    expect(after).toContain("  resources: {\n    appConfig() {\n");
    expect(after).toContain(
      '    prompts: { planTrip: { city: completeCity },\n      reviewCode: {\n        "file-path"() {\n',
    );
    expect(after).toContain(
      "          return [];\n        },\n      },\n    },\n    resourceTemplates: { cityWeather: { city: completeCity } },\n",
    );
    expect(added.filter((line) => line.includes("TODO"))).toHaveLength(5);
    expect(added.join("\n")).not.toContain("second line");
    // The handler left without a declaration is the one thing the compiler objects to.
    expect(compile(dir).split("\n")).toEqual([
      expect.stringMatching(/handlers\.ts:\d+: TS2353 .*'oldPrompt' does not exist/),
    ]);
    writeFileSync(file, after.replace("    oldPrompt() { return [] }, // kept\n", ""));
    expect(compile(dir)).toBe("");
    writeFileSync(file, after);

    const again = runCli(["scaffold"], dir);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe("mcp-gen: src/handlers.ts: nothing to add; every declaration has a handler\n");
    expect(readFileSync(file, "utf8")).toBe(after);
    expect(runCli(["scaffold", "--check"], dir).status).toBe(0);
  }, 120_000);

  it("fills an object typed with `satisfies`, and creates a missing file", () => {
    const dir = weatherProject();
    const file = join(dir, "src", "handlers.ts");
    const satisfied =
      'import type { WeatherHandlers } from "./mcp/index.js";\n\nexport const handlers = {} satisfies WeatherHandlers;\n';
    writeFileSync(file, satisfied);
    expect(runCli(["scaffold", "-q"], dir).status).toBe(0);
    const filled = readFileSync(file, "utf8");
    expect(
      filled.startsWith(
        'import type { WeatherHandlers } from "./mcp/index.js";\n\nexport const handlers = {\n  tools: {\n    findUsers(',
      ),
    ).toBe(true);
    expect(filled.endsWith("\n} satisfies WeatherHandlers;\n")).toBe(true);
    expect(compile(dir)).toBe("");

    // An `as` assertion marks the object too.
    writeFileSync(file, satisfied.replace("satisfies", "as"));
    expect(runCli(["scaffold", "-q"], dir).status).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(filled.replace("satisfies", "as"));

    rmSync(file);
    const check = runCli(["scaffold", "--check"], dir);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("missing in src/handlers.ts, which does not exist");
    const created = runCli(["scaffold"], dir);
    expect(created.status).toBe(0);
    expect(created.stdout).toContain("created src/handlers.ts\n");
    expect(readFileSync(file, "utf8")).toContain(
      'import type { WeatherHandlers } from "./mcp/index.js";\n\nexport const handlers: WeatherHandlers = {\n  tools: {\n',
    );
    expect(compile(dir)).toBe("");
    // A stub for every kind of handler, in a project that flags what it does not use.
    expect(compileUnused(file)).toBe("");
  }, 120_000);

  it("gives a handler with a body (init's greet) only the parameters the body uses", () => {
    const dir = tempProject();
    mkdirSync(join(dir, "node_modules", "@mcp-gen"), { recursive: true });
    symlinkSync(join(repoRoot, "runtime"), join(dir, "node_modules", "@mcp-gen", "runtime"), "dir");
    expect(runCli(["init", ".", "--name", "hello-mcp"], dir).status).toBe(0);
    expect(runCli(["generate", "-q"], dir).status).toBe(0);
    const file = join(dir, "src", "handlers.ts");
    expect(readFileSync(file, "utf8")).toMatch(/^ {4}greet\(\{ name \}\) \{$/m);
    expect(compileUnused(file)).toBe("");
  }, 120_000);

  it("says what it looked for when no handlers object is found, and writes nothing", () => {
    const dir = weatherProject();
    const other = join(dir, "src", "other.ts");
    writeFileSync(other, "export const handlers = { tools: {} };\n");
    const run = runCli(["scaffold", "--handlers", "src/other.ts"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "mcp-gen: src/other.ts:1:1: found no handlers object: looked for `const handlers: WeatherHandlers = { … }`, `{ … } satisfies WeatherHandlers` or `{ … } as WeatherHandlers`\n",
    );
    expect(readFileSync(other, "utf8")).toBe("export const handlers = { tools: {} };\n");
    writeFileSync(other, "export const handlers: WeatherHandlers = {\n  tools: {\n");
    const broken = runCli(["scaffold", "--handlers", "src/other.ts"], dir);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/^mcp-gen: src\/other\.ts:3:1: cannot parse the handlers file: '\}' expected/);
  }, 120_000);
  it("keeps a byte order mark, sees handlers under computed keys, and compiles", () => {
    const dir = weatherProject();
    const file = join(dir, "src", "handlers.ts");
    const original = readFileSync(file, "utf8");
    const edited = `\uFEFF${original.replace("    listCities() {", '    ["listCities"]() {')}`;
    expect(edited).toContain('["listCities"]() {');
    writeFileSync(file, edited);
    const run = runCli(["scaffold"], dir);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain("listCities");
    const after = readFileSync(file, "utf8");
    expect(after.startsWith(edited.slice(0, 40))).toBe(true);
    expect(addedLines(edited, after).join("\n")).toContain("findUsers(");
    expect(compile(dir)).toBe("");
  }, 120_000);

  it("keeps a server name's line breaks out of the comment of a new file", () => {
    const dir = weatherProject();
    const manifest = join(dir, "mcp.yaml");
    writeFileSync(
      manifest,
      readFileSync(manifest, "utf8").replace(
        "  name: weather\n",
        '  name: "weather\\nconsole.log(\\"injected\\")//"\n',
      ),
    );
    expect(runCli(["mcp.yaml", "-q"], dir).stderr).toBe("");
    const file = join(dir, "src", "handlers.ts");
    rmSync(file);
    expect(runCli(["scaffold", "-q"], dir).status).toBe(0);
    const created = readFileSync(file, "utf8");
    expect(created.split("\n")[0]).toBe(
      '// What the weather console.log("injected")// server does: one handler per tool, resource, template and prompt of its',
    );
    expect(created).not.toMatch(/^console/m);
    expect(formatTypeErrors(typecheck([file]))).toBe("");
  }, 120_000);

  it("edits the file a symbolic link names, keeps its mode, and refuses a read-only file or a folder", () => {
    const dir = weatherProject();
    const file = join(dir, "src", "handlers.ts");
    const original = readFileSync(file, "utf8").replace(/ {4}listCities\(\) \{\n.*\n {4}\},\n/, "");
    const real = join(dir, "src", "real-handlers.ts");
    writeFileSync(real, original);
    chmodSync(real, 0o600);
    rmSync(file);
    symlinkSync("real-handlers.ts", file);
    expect(runCli(["scaffold", "-q"], dir).status).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toContain("listCities(");
    expect(statSync(real).mode & 0o777).toBe(0o600);

    writeFileSync(real, original);
    chmodSync(real, 0o444);
    const readOnly = runCli(["scaffold"], dir);
    expect(readOnly.status).toBe(1);
    expect(readOnly.stderr).toBe("mcp-gen: src/handlers.ts is read-only; make it writable to add 4 handler(s) to it\n");
    expect(readFileSync(real, "utf8")).toBe(original);
    expect(runCli(["scaffold", "--check"], dir).stderr).toContain("tools.listCities (tool list_cities) has no handler");

    mkdirSync(join(dir, "src", "folder.ts"));
    const folder = runCli(["scaffold", "--handlers", "src/folder.ts"], dir);
    expect(folder.status).toBe(1);
    expect(folder.stderr).toMatch(/^mcp-gen: src\/folder\.ts: cannot read the handlers file \(EISDIR/);
  }, 120_000);
});
