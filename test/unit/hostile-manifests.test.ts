// Manifests a new user writes that once hung, crashed or were refused: each either works
// (generates code that compiles under strict settings and behaves over a real session)
// or fails fast with an exact `file:line:col` message and writes nothing.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { formatLocation } from "../../generator/diagnostics.js";
import { parseSource } from "../../generator/load/parse.js";
import { generate } from "../../generator/pipeline.js";
import { runCliAsync, tempProject } from "../support/generate.js";
import { schemaDir } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const projects: string[] = [];
afterAll(() => {
  for (const project of projects) rmSync(project, { recursive: true, force: true });
});

/** A manifest whose body starts on line 4. */
const manifest = (protocol: string, ...body: string[]) =>
  ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', `protocol: ${protocol}`, ...body, ""].join("\n");

/** Every file under `dir`, relative, sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** "Billion laughs": 9 levels of 9 aliases under `examples`, 9^9 values once expanded. */
function aliasBomb(): string {
  const lines = [
    "tools:",
    "  t:",
    "    input:",
    "      type: object",
    "      examples:",
    "        - &a0 [x, x, x, x, x, x, x, x, x]",
  ];
  for (let level = 1; level <= 9; level++)
    lines.push(`        - &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(", ")}]`);
  return manifest("2025-06-18", ...lines);
}

interface Refused {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  readonly args?: readonly string[];
  readonly stderr: readonly string[];
}

const refused: Refused[] = [
  {
    name: "a YAML alias bomb fails at the alias that crosses the limit",
    files: { "mcp.yaml": aliasBomb() },
    // a2 costs 9 × 9 nested copies, the first *a2 inside a3 brings the total over 100.
    stderr: [
      'mcp.yaml:12:16: aliases expand too much (more than 100 nested alias copies, as in a "billion laughs" document); write repeated values out, or alias only values that contain no aliases',
    ],
  },
  {
    name: "an alias inside the value it names",
    files: { "mcp.yaml": ["mcpgen: 1", 'server: &s { name: demo, version: "1.0.0", title: *s }', ""].join("\n") },
    stderr: [
      'mcp.yaml:2:51: aliases expand too much (more than 100 nested alias copies, as in a "billion laughs" document); write repeated values out, or alias only values that contain no aliases',
    ],
  },
  {
    name: "tool names clients may refuse are errors under --strict",
    files: {
      "mcp.yaml": manifest("2025-11-25", "tools:", "  get weather: {}", "  météo: {}", `  ${"a".repeat(129)}: {}`),
    },
    args: ["mcp.yaml", "--out", "out", "--strict"],
    stderr: [
      'mcp.yaml:5:3: tool name "get weather" has a character outside A-Z a-z 0-9 _ - . (" "); since protocol 2025-11-25 tool names should be 1 to 128 of those characters, and clients may refuse others',
      'mcp.yaml:6:3: tool name "météo" has a character outside A-Z a-z 0-9 _ - . ("é"); since protocol 2025-11-25 tool names should be 1 to 128 of those characters, and clients may refuse others',
      // The length is the manifest's shape; it leaves the other tools' checks running.
      `mcp.yaml:7:3: "${"a".repeat(129)}" is not a valid name: it must be 1 to 128 characters`,
    ],
  },
  {
    name: "a schema file whose definitions refer to the next level ten times over (a $ref expansion bomb) fails fast",
    files: {
      "mcp.yaml": manifest(
        "2025-06-18",
        "tools:",
        "  t:",
        "    input:",
        "      type: object",
        "      properties:",
        "        x: { $ref: ./s.json#/$defs/l0 }",
      ),
      "s.json": `${JSON.stringify({ $defs: { ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`l${i}`, { oneOf: Array.from({ length: 10 }, () => ({ $ref: `#/$defs/l${i + 1}` })) }])), l6: { type: "string" } } })}\n`,
    },
    stderr: [
      'mcp.yaml:9:20: the $refs of this schema expand to more than 100,000 schema objects copied from files (definitions that refer to each other many times over); mcp-gen inlines every $ref into a file, so refer to those definitions fewer times, or give the schema the file as a whole ({ $ref: ./file.json }), whose own "#/…" refs stay references',
    ],
  },
  {
    name: "JSON nested 300 levels deep",
    files: { "mcp.yaml": `{"mcpgen":1,"x":${"[".repeat(300)}${"]".repeat(300)}}` },
    stderr: [
      "mcp.yaml:1:273: values nest more than 256 levels deep here; a manifest or schema never needs that many, so flatten it (use $defs and $ref for recursive shapes)",
    ],
  },
  {
    name: "a large value aliased many times (3,000 aliases of a 3,000-item list: 9 million values from 47 KB) fails at the alias that crosses the limit",
    files: {
      "mcp.yaml": `mcpgen: 1\nserver: { name: x, version: "1" }\nprotocol: 2026-07-28\nx-big: &x\n${"  - 1\n".repeat(3000)}x-many:\n${"  - *x\n".repeat(3000)}`,
    },
    // Each alias copies 3,001 values (the list and its items): the 334th brings the total over 1,000,000.
    stderr: [
      "mcp.yaml:3339:5: aliases expand to more than 1,000,000 values (a large value aliased many times); alias it less often, or share schemas with $ref to $defs",
    ],
  },
  {
    name: "YAML with 2,000 flow brackets left open: each problem once, not once per bracket",
    files: { "mcp.yaml": `mcpgen: 1\nx: ${"[".repeat(2000)}\n` },
    stderr: [
      "mcp.yaml:2:790: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
      "mcp.yaml:2:790: values nest too deep to read; a manifest or schema never needs more than 256 levels, so flatten it",
    ],
  },
  {
    name: "a recursive file schema whose definition names are both taken",
    files: {
      "mcp.yaml": manifest(
        "2025-06-18",
        "tools:",
        "  walk:",
        "    input:",
        "      type: object",
        "      properties:",
        "        tree: { $ref: ./schemas/tree.json }",
        "      $defs:",
        "        tree: { type: string }",
        "        schemas-tree: { type: string }",
      ),
      "schemas/tree.json":
        '{ "type": "object", "properties": { "children": { "type": "array", "items": { "$ref": "#" } } } }\n',
    },
    stderr: [
      'schemas/tree.json:1:87: the recursive schema "schemas/tree.json" moves under $defs of this schema, but its names "tree" and "schemas-tree" are taken (by the schema\'s own definitions or another recursive file); rename one of them',
    ],
  },
  {
    name: "a protocol schema problem is reported with the manifest's own mistakes, not after them",
    files: { "mcp.yaml": manifest("[2025-06-18, 2025-11-25]", "resources:", "  cfg: { uri: nouri }") },
    args: ["mcp.yaml", "--out", "out", "--schema", "schema.json"],
    stderr: [
      "mcp.yaml:3:11: --schema names one schema.json but the manifest selects 2 revisions; use --schema-dir <dir> holding <revision>/schema.json",
      'mcp.yaml:5:15: resource uri "nouri" has no scheme; write an absolute URI such as "config://app" or "file:///path"',
    ],
  },
  {
    // Found by fuzz/manifests.ts (its validators check against ajv): ajv, which many clients validate with, refuses such a schema.
    name: "the same $anchor twice in one schema",
    files: {
      "mcp.yaml": manifest(
        "2025-11-25",
        "tools:",
        "  t:",
        "    input:",
        "      type: object",
        "      $defs:",
        "        a: { $anchor: place, type: string }",
        "        b: { $anchor: place, type: number }",
      ),
    },
    stderr: [
      'mcp.yaml:10:23: input schema of tool "t": $anchor "place" is declared twice (first at "/$defs/a"); anchors must be unique within a schema, so rename or remove one',
    ],
  },
  {
    // Found by fuzz/manifests.ts: the message said `$schema "[object Object]"`.
    name: "a $schema that is not a string is shown as written",
    files: {
      "mcp.yaml": manifest("2025-06-18", "tools:", "  t:", "    input: { $schema: { draft: 7 }, type: object }"),
    },
    stderr: [
      'mcp.yaml:6:23: input schema of tool "t" declares $schema {"draft":7}; mcp-gen supports JSON Schema 2020-12 (the default) and draft-07',
    ],
  },
  {
    // Found by fuzz/manifests.ts: encodeURIComponent threw on the app's name.
    name: "an app named with an unpaired surrogate and no uri",
    files: {
      "mcp.yaml":
        '{"mcpgen":1,"server":{"name":"demo","version":"1"},"protocol":"2026-07-28","apps":{"p\\udc00":{"html":"./p.html"}}}',
      "p.html": "<html><body>x</body></html>\n",
    },
    stderr: [
      'mcp.yaml:1:84: app name "p\\udc00" holds an unpaired surrogate (a lone half of a UTF-16 pair), so the default ui:// URI cannot be made from it; rename it, or give the app a `uri`',
    ],
  },
  {
    name: "template variables named like built-in object properties, or percent-encoded",
    files: {
      "mcp.yaml": manifest(
        "2025-06-18",
        "resourceTemplates:",
        '  a: { uriTemplate: "x://{constructor}" }',
        '  b: { uriTemplate: "x://{%41b}" }',
      ),
    },
    stderr: [
      'mcp.yaml:5:26: template variable "constructor" cannot be a property name of the generated Variables type; it is the name of a built-in property of every JavaScript object; rename it',
      'mcp.yaml:6:26: template variable "%41b" cannot be a property name of the generated Variables type; use letters, digits, _ and single dots between them',
    ],
  },
];

describe("hostile manifests that must fail cleanly", () => {
  it("the alias bomb is refused without expanding it", () => {
    // A guard against expansion (9^9 nodes: minutes and gigabytes), not a speed measurement:
    // the bound is loose so that a busy machine cannot fail it.
    const started = performance.now();
    const parsed = parseSource("mcp.yaml", aliasBomb());
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(parsed.source).toBeUndefined();
    expect(parsed.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("aliases expand too much")]);
  });

  it("aliases that expand a little are fine, and positions inside them are the alias's own", () => {
    const text = ["base: &b { type: string, enum: [a, b] }", "copy: *b", "list: [*b, *b]", ""].join("\n");
    const parsed = parseSource("x.yaml", text);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.source!.value).toEqual({
      base: { type: "string", enum: ["a", "b"] },
      copy: { type: "string", enum: ["a", "b"] },
      list: [
        { type: "string", enum: ["a", "b"] },
        { type: "string", enum: ["a", "b"] },
      ],
    });
    expect(parsed.source!.positions.value("/copy/enum/1")).toEqual({ file: "x.yaml", line: 2, col: 7 });
    expect(parsed.source!.positions.value("/list/1/type")).toEqual({ file: "x.yaml", line: 3, col: 12 });
  });

  it("nesting deep enough to overflow a parser's stack is an error, not a crash", async () => {
    for (const text of [
      `{"mcpgen":1,"x":${"[".repeat(20000)}${"]".repeat(20000)}}`,
      `mcpgen: 1\nx: ${"[".repeat(20000)}${"]".repeat(20000)}\n`,
    ]) {
      const project = tempProject({ "mcp.yaml": text });
      projects.push(project);
      const run = await runCliAsync(["mcp.yaml", "--out", "out"], project);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^mcp-gen: mcp\.yaml:\d+:\d+: values nest (too deep to read|more than 256 levels deep here)/,
      );
      expect(run.stderr).not.toMatch(/internal error/);
      expect(existsSync(join(project, "out"))).toBe(false);
    }
  });

  for (const c of refused) {
    it(c.name, async () => {
      const project = tempProject(c.files);
      projects.push(project);
      const before = listFiles(project);
      const started = performance.now();
      const run = await runCliAsync(c.args ?? ["mcp.yaml", "--out", "out"], project);
      expect({ exit: run.status, stderr: run.stderr.split("\n").filter((l) => l !== "") }).toEqual({
        exit: 1,
        stderr: c.stderr.map((l) => `mcp-gen: ${l}`),
      });
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(run.stdout).toBe("");
      expect(listFiles(project)).toEqual(before);
    });
  }
});

describe("hostile manifests that must work", () => {
  it("tool names clients may refuse are warnings: printed with their position, the run succeeds", async () => {
    const project = tempProject({
      "mcp.yaml": manifest("2025-11-25", "tools:", "  get weather: {}", "  ok_name.v2: {}"),
    });
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "--out", "out", "-q"], project);
    expect(run.stderr.split("\n").filter((l) => l !== "")).toEqual([
      'mcp-gen: mcp.yaml:5:3: warning: tool name "get weather" has a character outside A-Z a-z 0-9 _ - . (" "); since protocol 2025-11-25 tool names should be 1 to 128 of those characters, and clients may refuse others',
    ]);
    expect(run.status).toBe(0);
    expect(existsSync(join(project, "out", "server.gen.ts"))).toBe(true);
    // Runs with warnings are not remembered as up to date in silence: the warning comes again.
    const again = await runCliAsync(["mcp.yaml", "--out", "out", "-q"], project);
    expect(again.stderr).toBe(run.stderr);
  });

  it("generate() returns warnings beside the files, and no files under strict", async () => {
    const dir = tempProject({
      "mcp.yaml": manifest("2025-11-25", "tools:", '  "météo": { input: { type: object, nullable: true } }'),
    });
    projects.push(dir);
    const relaxed = await generate({ manifest: join(dir, "mcp.yaml"), cwd: dir, schemaDir, out: join(dir, "out") });
    expect(relaxed.ok).toBe(true);
    const warnings = relaxed.ok
      ? relaxed.warnings.map((w) => [formatLocation(w.location), w.severity, w.message.slice(0, 40)])
      : [];
    expect(warnings).toEqual([
      ["mcp.yaml:5:3", "warning", 'tool name "météo" has a character outsid'],
      ["mcp.yaml:5:37", "warning", 'input schema of tool "météo": unknown ke'],
    ]);
    const strict = await generate({
      manifest: join(dir, "mcp.yaml"),
      cwd: dir,
      schemaDir,
      out: join(dir, "out"),
      strict: true,
    });
    expect(strict.ok).toBe(false);
    expect(strict.ok ? [] : strict.diagnostics.map((d) => [formatLocation(d.location), d.severity])).toEqual([
      ["mcp.yaml:5:3", undefined],
      ["mcp.yaml:5:37", undefined],
    ]);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  let project = "";
  it("recursive file schemas, data that looks like $ref, dotted template variables and whitespace control generate code that compiles", async () => {
    project = tempProject({
      "mcp.yaml": manifest(
        "2025-11-25",
        "tools:",
        "  walk:",
        "    input:",
        "      type: object",
        "      properties:",
        "        tree: { $ref: ./schemas/tree.json }",
        '        node: { $ref: "./schemas/graph.json#/$defs/node" }',
        "        note:",
        "          type: object",
        "          default: { $ref: ./missing.json }",
        '          examples: [{ $ref: "#/nowhere" }]',
        "          x-origin: { $ref: ./missing.json }",
        "      required: [tree]",
        "resourceTemplates:",
        "  post:",
        '    uriTemplate: "users://{user.id}/posts/{post_id}"',
        "prompts:",
        "  greet:",
        "    arguments: { name: {} }",
        "    messages:",
        "      - role: user",
        "        text: |",
        "          Hello {{~#if name}} {{name}}{{/if~}} !",
        "          {{#if name}}",
        "            welcome back",
        "          {{/if}}",
        "          end",
      ),
      "schemas/tree.json":
        '{ "type": "object", "properties": { "value": { "type": "string" }, "children": { "type": "array", "items": { "$ref": "#" } } }, "required": ["value"] }\n',
      "schemas/graph.json":
        '{ "$defs": { "node": { "type": "object", "properties": { "id": { "type": "integer" }, "next": { "$ref": "#/$defs/node" }, "tree": { "$ref": "tree.json" } } } } }\n',
      "handlers.ts": [
        'import type { DemoHandlers, WalkArgs, WalkInputTree } from "./mcp/index.js";',
        "const count = (tree: WalkInputTree): number => 1 + (tree.children ?? []).reduce((n, child) => n + count(child), 0);",
        "export const handlers: DemoHandlers = {",
        "  tools: { walk: (args: WalkArgs) => `${count(args.tree)} ${JSON.stringify(args.note)} ${args.node?.next?.tree?.value ?? '-'}` },",
        '  resourceTemplates: { post: (variables) => `user ${variables["user.id"]} post ${variables.post_id}` },',
        "};",
        "",
      ].join("\n"),
    });
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "-q"], project);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const types = readFileSync(join(project, "mcp", "types.gen.ts"), "utf8");
    expect(types).toContain('"user.id": string;');
    expect(types).toMatch(/export interface WalkInputTree \{[^}]*children\?: WalkInputTree\[\] \| undefined;/);
    expect(types).toMatch(
      /export interface WalkInputNode \{[^}]*next\?: WalkInputNode \| undefined;[^}]*tree\?: WalkInputTree \| undefined;/,
    );
    const generated = readdirSync(join(project, "mcp")).map((f) => join(project, "mcp", f));
    const errors = typecheck([...generated, join(project, "handlers.ts")]);
    expect(errors, formatTypeErrors(errors)).toEqual([]);
  });

  it("serve them: recursive arguments validated, data kept as written, dotted variables decoded, prompt whitespace as Handlebars renders it", async () => {
    expect(project, "the compile test must run first").not.toBe("");
    const { memoryChannel } = await import("@mcp-gen/runtime");
    const generatedIndex = (await import(pathToFileURL(join(project, "mcp", "index.ts")).href)) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const { handlers } = (await import(pathToFileURL(join(project, "handlers.ts")).href)) as { handlers: unknown };
    const server = generatedIndex.createDemoServer!(handlers);
    const client = (await generatedIndex.connectDemoClient!(
      memoryChannel(server as Parameters<typeof memoryChannel>[0]),
    )) as {
      session: { rawRequest(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> };
      resourceTemplates: {
        post(variables: Record<string, string>): Promise<{ contents: { uri: string; text: string }[] }>;
      };
      close(): Promise<void>;
    };
    try {
      const { tools } = (await client.session.rawRequest("tools/list", {})) as {
        tools: { inputSchema: Record<string, unknown> }[];
      };
      const schema = tools[0]!.inputSchema as { properties: Record<string, unknown>; $defs: Record<string, unknown> };
      expect(schema.properties.tree).toEqual({ $ref: "#/$defs/tree" });
      expect(schema.properties.node).toEqual({ $ref: "#/$defs/node" });
      expect(Object.keys(schema.$defs)).toEqual(["node", "tree"]);
      expect(schema.properties.note).toEqual({
        type: "object",
        default: { $ref: "./missing.json" },
        examples: [{ $ref: "#/nowhere" }],
        "x-origin": { $ref: "./missing.json" },
      });

      const tree = { value: "root", children: [{ value: "a", children: [{ value: "a1" }] }, { value: "b" }] };
      const call = (args: unknown) => client.session.rawRequest("tools/call", { name: "walk", arguments: args });
      const walked = (await call({ tree, node: { id: 1, next: { id: 2, tree: { value: "deep" } } } })) as {
        content: { text: string }[];
      };
      expect(walked.content[0]!.text).toBe('4 {"$ref":"./missing.json"} deep');
      const invalid = (await call({ tree: { value: "root", children: [{ children: [] }] } }).catch(
        (e: unknown) => e,
      )) as Record<string, unknown>;
      expect(JSON.stringify(invalid)).toMatch(/children\/0.*value|value.*children\/0/);

      const read = (await client.session.rawRequest("resources/read", {
        uri: "users://ada%2Elovelace/posts/7%20b",
      })) as { contents: { text: string }[] };
      expect(read.contents[0]!.text).toBe("user ada.lovelace post 7 b");
      // The typed client expands the dotted variable (RFC 6570: the value is percent-encoded, the name is not sent).
      const viaClient = await client.resourceTemplates.post({ "user.id": "grace/h", post_id: "1" });
      expect(viaClient.contents[0]).toMatchObject({ uri: "users://grace%2Fh/posts/1", text: "user grace/h post 1" });

      const { messages } = (await client.session.rawRequest("prompts/get", {
        name: "greet",
        arguments: { name: "Ada" },
      })) as { messages: { content: { text: string } }[] };
      const { messages: anonymous } = (await client.session.rawRequest("prompts/get", {
        name: "greet",
        arguments: {},
      })) as { messages: { content: { text: string } }[] };
      // What handlebars renders for the same template (test/unit/prompt-whitespace.test.ts compares many more).
      expect(messages[0]!.content.text).toBe("Hello Ada!\n  welcome back\nend\n");
      expect(anonymous[0]!.content.text).toBe("Hello!\nend\n");
    } finally {
      await client.close();
    }
  });

  it("files that refer to each other through the file that is the whole schema: refs back to it point at the root", async () => {
    const dir = tempProject({
      "mcp.yaml": manifest("2025-06-18", "tools:", "  ping:", "    input: { $ref: ./schemas/a.json }"),
      "schemas/a.json": '{\n  "type": "object",\n  "properties": { "b": { "$ref": "b.json" } }\n}\n',
      "schemas/b.json": '{\n  "type": "object",\n  "properties": { "a": { "$ref": "./a.json" } }\n}\n',
    });
    projects.push(dir);
    const run = await runCliAsync(["mcp.yaml", "-q"], dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "mcp", "types.gen.ts"), "utf8")).toContain("a?: PingInput | undefined;");
    const errors = typecheck(readdirSync(join(dir, "mcp")).map((f) => join(dir, "mcp", f)));
    expect(errors, formatTypeErrors(errors)).toEqual([]);
  });

  // The emitter rewrite (another branch) fixes these: until it is merged, the types emitter's
  // json-schema-to-typescript fallback dereferences $ref-like objects inside const/enum, and
  // a `*/` in a patternProperties key ends a doc comment early.
  it("const and enum values that look like $refs are data (needs the emitter rewrite)", async () => {
    const dir = tempProject({
      "mcp.yaml": manifest(
        "2025-11-25",
        "tools:",
        "  pick:",
        "    input:",
        "      type: object",
        "      properties:",
        "        fixed: { const: { $ref: ./missing.json } }",
        "        choice: { enum: [{ $ref: ./missing.json }, plain] }",
      ),
    });
    projects.push(dir);
    const run = await runCliAsync(["mcp.yaml", "-q"], dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const errors = typecheck(readdirSync(join(dir, "mcp")).map((f) => join(dir, "mcp", f)));
    expect(errors, formatTypeErrors(errors)).toEqual([]);
  });

  // Found by fuzz/manifests.ts: `$ref: ""` (the document itself) crashed the generator.
  it('$ref "" refers to the schema itself, as "#" does: a recursive type and validator', async () => {
    const dir = tempProject({
      "mcp.yaml": manifest(
        "2025-11-25",
        "tools:",
        "  nest:",
        "    input:",
        "      type: object",
        "      properties:",
        "        name: { type: string }",
        '        parent: { $ref: "" }',
        "      required: [name]",
      ),
    });
    projects.push(dir);
    const run = await runCliAsync(["mcp.yaml", "-q"], dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "mcp", "types.gen.ts"), "utf8")).toMatch(
      /export interface NestInput \{[^}]*parent\?: NestInput \| undefined;/,
    );
    const errors = typecheck(readdirSync(join(dir, "mcp")).map((f) => join(dir, "mcp", f)));
    expect(errors, formatTypeErrors(errors)).toEqual([]);
    const { validateNestInput } = (await import(pathToFileURL(join(dir, "mcp", "validators.gen.ts")).href)) as {
      validateNestInput: (value: unknown) => { path: string } | undefined;
    };
    expect(validateNestInput({ name: "a", parent: { name: "b", parent: { name: "c" } } })).toBeUndefined();
    expect(validateNestInput({ name: "a", parent: { name: "b", parent: { name: 3 } } })?.path).toBe(
      "/parent/parent/name",
    );
  });

  it("a patternProperties key containing */ generates code that compiles (needs the emitter rewrite)", async () => {
    const dir = tempProject({
      "mcp.yaml": manifest(
        "2025-11-25",
        "tools:",
        "  tag:",
        "    input:",
        "      type: object",
        "      patternProperties:",
        '        "^a*/b$": { type: string }',
      ),
    });
    projects.push(dir);
    const run = await runCliAsync(["mcp.yaml", "-q"], dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const errors = typecheck(readdirSync(join(dir, "mcp")).map((f) => join(dir, "mcp", f)));
    expect(errors, formatTypeErrors(errors)).toEqual([]);
  });
});
