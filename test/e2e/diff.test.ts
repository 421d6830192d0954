// `mcp-gen diff` through the built CLI on the official revisions: every consecutive pair,
// the 2025-11-25 → 2026-07-28 bump in detail, manifest impact, text layout and errors.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { allRevisions, schemaDir } from "../support/paths.js";

interface Change {
  method: string;
  from: string[];
  to: string[];
}
interface Signature {
  declaration: string;
  signature: string;
  changed: string[];
  added: string[];
  removed: string[];
  metaOnly: boolean;
}
interface DiffJson {
  from: string;
  to: string;
  methods: { added: Change[]; removed: Change[]; moved: Change[] };
  types: {
    added: string[];
    removed: string[];
    changed: { name: string; changes: { path: string; change: string; to?: string }[] }[];
    descriptionOnly: string[];
  };
  contentBlocks: { added: string[]; removed: string[]; changed: { name: string; types: string[] }[] };
  manifest: {
    manifest: string;
    revisions: string[];
    notes: string[];
    signatures: Signature[];
    clientRequests: { added: string[]; removed: string[] };
  } | null;
  summary: Record<string, Record<string, number>>;
}

function diffJson(args: string[], cwd?: string): DiffJson {
  const run = runCli(["diff", ...args, "--json"], cwd);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as DiffJson;
}

const oldest = [...allRevisions].reverse();
const empty = mkdtempSync(join(tmpdir(), "mcp-gen-diff-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe("mcp-gen diff on the official revisions", () => {
  it.each(oldest.slice(1).map((to, i) => [oldest[i]!, to]))(
    "%s → %s runs and reports consistent counts",
    (from, to) => {
      const diff = diffJson([from, to], empty);
      expect([diff.from, diff.to, diff.manifest]).toEqual([from, to, null]);
      expect(diff.summary.methods).toEqual({
        added: diff.methods.added.length,
        removed: diff.methods.removed.length,
        moved: diff.methods.moved.length,
      });
      expect(diff.summary.types!.changed).toBe(diff.types.changed.length);
      expect(diff.types.changed.length).toBeGreaterThan(0);
      expect(diff.types.changed.map((t) => t.name)).toEqual([...diff.types.changed.map((t) => t.name)].sort());
    },
  );

  it("2025-11-25 → 2026-07-28: 13 methods removed, 3 added, 4 moved; content blocks changed", () => {
    const diff = diffJson(["2025-11-25", "2026-07-28"], empty);
    expect(diff.methods.removed.map((m) => m.method)).toEqual([
      "initialize",
      "logging/setLevel",
      "notifications/elicitation/complete",
      "notifications/initialized",
      "notifications/roots/list_changed",
      "notifications/tasks/status",
      "ping",
      "resources/subscribe",
      "resources/unsubscribe",
      "tasks/cancel",
      "tasks/get",
      "tasks/list",
      "tasks/result",
    ]);
    expect(diff.methods.added).toEqual([
      { method: "notifications/subscriptions/acknowledged", from: [], to: ["server notification"] },
      { method: "server/discover", from: [], to: ["client request"] },
      { method: "subscriptions/listen", from: [], to: ["client request"] },
    ]);
    expect(diff.methods.moved).toContainEqual({
      method: "elicitation/create",
      from: ["server request"],
      to: ["input request"],
    });
    expect(diff.methods.moved.map((m) => m.method)).toEqual([
      "elicitation/create",
      "notifications/progress",
      "roots/list",
      "sampling/createMessage",
    ]);
    expect(diff.contentBlocks.added).toEqual([]);
    expect(diff.contentBlocks.changed.map((m) => m.name)).toEqual([
      "AudioContent",
      "EmbeddedResource",
      "ImageContent",
      "ResourceLink",
      "TextContent",
    ]);
    const callToolResult = diff.types.changed.find((t) => t.name === "CallToolResult")!;
    expect(callToolResult.changes).toContainEqual({ path: "resultType", change: "added", to: "string" });
    expect(diff.types.added).toContain("InputRequiredResult");
    expect(diff.types.removed).toContain("InitializeRequest");
  });

  it("2024-11-05 → 2025-03-26 adds AudioContent to the content blocks", () => {
    expect(diffJson(["2024-11-05", "2025-03-26"], empty).contentBlocks.added).toEqual(["AudioContent"]);
  });

  it("prints the same bytes on every run", () => {
    const args = ["diff", "2025-06-18", "2025-11-25", "examples/weather/mcp.yaml"];
    expect(runCli(args).stdout).toBe(runCli(args).stdout);
  });
});

describe("mcp-gen diff with a manifest", () => {
  it("names the weather example's handler and client signatures that change", () => {
    const diff = diffJson(["2025-11-25", "2026-07-28", "examples/weather/mcp.yaml"]);
    const manifest = diff.manifest!;
    expect(manifest.notes).toEqual([]);
    const tool = manifest.signatures.find((s) => s.declaration === "tool get_forecast")!;
    expect(tool.signature).toBe("result content: handler ToolContent, client ToolResultContent");
    expect(tool.changed).toEqual(expect.arrayContaining(["AudioContent", "TextContent"]));
    const read = manifest.signatures.find((s) => s.declaration === "resource app_config")!;
    expect(read).toMatchObject({ signature: "read result: client ReadResourceResult" });
    expect(read.changed).toContain("ReadResourceResult");
    // The declarative prompt has no handler; plan_trip has one.
    expect(
      manifest.signatures
        .filter((s) => s.declaration.startsWith("prompt"))
        .map((s) => `${s.declaration}: ${s.signature}`),
    ).toEqual([
      "prompt summarize: result: client GetPromptResult",
      "prompt plan_trip: messages: handler PromptMessage",
      "prompt plan_trip: result: client GetPromptResult",
    ]);
    expect(manifest.clientRequests).toEqual({
      added: ["server/discover", "subscriptions/listen"],
      removed: [
        "initialize",
        "logging/setLevel",
        "ping",
        "resources/subscribe",
        "resources/unsubscribe",
        "tasks/cancel",
        "tasks/get",
        "tasks/list",
        "tasks/result",
      ],
    });
  });

  it("reads ./mcp.yaml by default, follows asks:, leaves out the client it does not generate, and says which revision it does not target", () => {
    const dir = tempProject({
      "mcp.yaml": [
        "mcpgen: 1",
        "server: { name: demo, version: 1.0.0 }",
        "protocol: [2025-06-18]",
        "generate: { client: false }",
        "tools:",
        "  confirm: { asks: [elicitation] }",
      ].join("\n"),
    });
    try {
      const manifest = diffJson(["2025-06-18", "2025-11-25"], dir).manifest!;
      expect(manifest.notes).toEqual([
        "mcp.yaml does not target 2025-11-25 (protocol: 2025-06-18); this is what adding it would change",
        "handler content types come from the preferred (first) revision, now 2025-06-18; they change as shown once 2025-11-25 is first in protocol:",
      ]);
      expect(manifest.signatures.map((s) => s.signature)).toEqual([
        "result content: handler ToolContent",
        "ctx.input elicitation/create",
      ]);
      const elicit = manifest.signatures[1]!;
      expect(elicit.changed).toContain("ElicitResult");
      expect(elicit.added).toContain("ElicitRequestURLParams");
      expect(manifest.clientRequests).toEqual({ added: [], removed: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("mcp-gen diff text output", () => {
  it("has its sections in order, aligned tables and a summary line last", () => {
    const run = runCli(["diff", "2025-11-25", "2026-07-28", "examples/weather/mcp.yaml"]);
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("mcp-gen diff 2025-11-25 → 2026-07-28");
    const headings = lines.filter((line) => /^[A-Z]/.test(line)).map((line) => line.replace(/ \(.*$/, ""));
    expect(headings).toEqual([
      "Methods",
      "Types added",
      "Types removed",
      "Types changed",
      "Content blocks",
      "Manifest examples/weather/mcp.yaml",
      "Summary: methods 3 added, 13 removed, 4 moved; types 42 added, 32 removed, 59 changed",
    ]);
    const header = lines.find((line) => line.startsWith("  change "))!;
    const initialize = lines.find((line) => line.startsWith("  removed  initialize "))!;
    expect(initialize.indexOf("client request")).toBe(header.indexOf("2025-11-25"));
    expect(lines).toContain(
      "  moved    elicitation/create                        server request                            input request",
    );
    expect(lines.some((line) => /^ {2}CallToolResult +resultType +added +string$/.test(line))).toBe(true);
    // The tools' result content changes only in _meta (an inline record becomes MetaObject).
    expect(
      lines.some((line) =>
        /^ {2}tool get_forecast +result content: .* +only in _meta: changed AudioContent \(_meta\)/.test(line),
      ),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(/; 4 of 7 generated signatures change, 3 more only in _meta$/);
  });

  it("lists description-only changes with --descriptions", () => {
    const plain = runCli(["diff", "2025-11-25", "2026-07-28"], empty).stdout;
    const verbose = runCli(["diff", "2025-11-25", "2026-07-28", "--descriptions"], empty).stdout;
    expect(plain).toMatch(/^Types changed \(59; 17 more differ only in descriptions, listed by --descriptions\)$/m);
    expect(plain).not.toContain("Types whose descriptions alone changed");
    expect(verbose).toMatch(/^Types whose descriptions alone changed \(17\)$/m);
  });
});

describe("mcp-gen diff errors", () => {
  it("an unknown revision is a usage error on one line", () => {
    const run = runCli(["diff", "2025-11-25", "2027-01-01"], empty);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`mcp-gen: unknown revision 2027-01-01; known: ${allRevisions.join(", ")}\n`);
  });

  it("a missing schema is a usage error on one line naming the fix", () => {
    const run = runCli(["diff", "2025-11-25", "2026-07-28", "--schema-dir", empty], empty, { XDG_CACHE_HOME: empty });
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("protocol schemas for 2025-11-25, 2026-07-28 not found");
    expect(run.stderr).toContain("mcp-gen schema fetch 2025-11-25 2026-07-28");
  });

  it("a broken manifest is reported at its position, exit 1", () => {
    const dir = tempProject({
      "mcp.yaml": "mcpgen: 1\nserver: { name: demo, version: 1.0.0 }\ntools:\n  t: { descripton: x }\n",
    });
    try {
      const run = runCli(["diff", "2025-11-25", "2026-07-28"], dir);
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^mcp-gen: mcp\.yaml:4:8: unknown key "descripton"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("mcp-gen diff between revisions that differ only in _meta", () => {
  // Two schema files derived from the official 2025-06-18 one, as two draft-07 revisions: the
  // second gives every inline `_meta` record one named MetaObject (as 2026-07-28 does), and,
  // for the control, also retypes TextContent.text.
  type Definitions = Record<string, { type?: string; properties?: Record<string, unknown> }>;
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-diff-meta-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const official = readFileSync(join(schemaDir, "2025-06-18", "schema.json"), "utf8");
  const derive = (name: string, change: (definitions: Definitions) => void) => {
    const schema = JSON.parse(official) as { definitions: Definitions };
    change(schema.definitions);
    for (const [revision, text] of [
      ["2025-03-26", official],
      ["2025-06-18", JSON.stringify(schema)],
    ] as const) {
      mkdirSync(join(dir, name, revision), { recursive: true });
      writeFileSync(join(dir, name, revision, "schema.json"), text);
    }
    return join(dir, name);
  };
  const namedMeta = (definitions: Definitions) => {
    let retyped = 0;
    for (const type of Object.values(definitions)) {
      const meta = type.properties?._meta as Definitions[string] | undefined;
      if (meta?.type !== "object" || meta.properties !== undefined) continue;
      definitions.MetaObject ??= meta;
      type.properties!._meta = { $ref: "#/definitions/MetaObject" };
      retyped++;
    }
    expect(retyped).toBeGreaterThan(20);
  };
  const diff = (schemas: string, json: boolean) =>
    runCli([
      "diff",
      "2025-03-26",
      "2025-06-18",
      "examples/weather/mcp.yaml",
      "--schema-dir",
      schemas,
      ...(json ? ["--json"] : []),
    ]);

  it("says every signature changes only in _meta, and counts none as changed", () => {
    const schemas = derive("meta", namedMeta);
    const text = diff(schemas, false);
    expect(text.stderr).toBe("");
    expect(text.stdout.trimEnd().split("\n").at(-1)).toMatch(/; 7 of 7 generated signatures change only in _meta$/);
    const report = JSON.parse(diff(schemas, true).stdout) as DiffJson;
    expect(report.summary.signatures).toEqual({ all: 7, changed: 0, metaOnly: 7 });
    expect(report.manifest!.signatures.map((s) => [s.metaOnly, s.added])).toEqual(
      Array(7).fill([true, ["MetaObject"]]),
    );
  });

  it("counts a signature as changed when a field beside _meta changes too", () => {
    const schemas = derive("text", (definitions) => {
      namedMeta(definitions);
      definitions.TextContent!.properties!.text = { type: "array", items: { type: "string" } };
    });
    const lines = diff(schemas, false).stdout.trimEnd().split("\n");
    // Tool content, prompt messages and prompt results carry TextContent; resource reads do not.
    expect(lines.at(-1)).toMatch(/; 5 of 7 generated signatures change, 2 more only in _meta$/);
    expect(
      lines.some((line) =>
        /^ {2}tool get_forecast +result content: .* +changed AudioContent \(_meta\).*TextContent \(_meta, text\)/.test(
          line,
        ),
      ),
    ).toBe(true);
    expect(
      lines.some((line) =>
        /^ {2}resource app_config +read result: client ReadResourceResult +only in _meta: changed/.test(line),
      ),
    ).toBe(true);
  });
});
