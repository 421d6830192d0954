// Manifests written as plain JSON are read by JSON.parse, their positions found by the yaml
// library only when a diagnostic asks: they must behave exactly like the YAML parser (the
// same generated code, the same positions in diagnostics), and text that JSON.parse would
// read differently (duplicate keys, infinite numbers) or not at all (comments) gets YAML's treatment.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../../generator/load/parse.js";
import { generateManifest } from "../support/generate.js";

const manifest = {
  mcpgen: 1,
  server: { name: "json-manifest", version: "1.0.0" },
  protocol: "2026-07-28",
  output: "./mcp",
  tools: {
    echo: {
      description: 'Echoes "quoted" text \u00e9 \\ back',
      input: {
        type: "object",
        properties: { text: { type: "string", maxLength: 1e3 }, n: { type: "number", minimum: -2.5 } },
        required: ["text"],
      },
    },
  },
};

function write(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-json-"));
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

async function locations(file: string): Promise<string[]> {
  const result = await generateManifest(file);
  if (result.ok) throw new Error("expected diagnostics");
  return result.diagnostics.map((d) =>
    "line" in d.location ? `${d.location.line}:${d.location.col} ${d.message}` : d.message,
  );
}

describe("JSON manifests", () => {
  it("generate the same code as the same manifest read as YAML", async () => {
    const json = JSON.stringify(manifest, null, 2);
    const fromJson = await generateManifest(write("mcp.yaml", json));
    const fromYaml = await generateManifest(write("mcp.yaml", `# read by the YAML parser\n${json}`));
    if (!fromJson.ok || !fromYaml.ok) throw new Error("generation failed");
    expect([...fromJson.generated.files.values()].map((t) => t.replace(/^\/\/ Source: .*$/m, ""))).toEqual(
      [...fromYaml.generated.files.values()].map((t) => t.replace(/^\/\/ Source: .*$/m, "")),
    );
  });

  it("report problems at the same positions as YAML", async () => {
    const bad = JSON.stringify(
      { ...manifest, tools: { echo: { ...manifest.tools.echo, descripton: "typo" } } },
      null,
      2,
    );
    const json = await locations(write("mcp.yaml", bad));
    const yaml = await locations(write("mcp.yaml", `# comment\n${bad}`));
    expect(json.length).toBeGreaterThan(0);
    expect(json).toEqual(yaml.map((l) => l.replace(/^(\d+)/, (n) => String(Number(n) - 1))));
  });

  it("report problems deep inside schemas at the same positions as YAML (positions there are recorded on demand)", async () => {
    const deep = {
      ...manifest.tools.echo.input,
      properties: {
        ...manifest.tools.echo.input.properties,
        n: { type: "number", minimum: "low" },
        list: { type: "array", items: { type: "strng" } },
      },
    };
    const bad = JSON.stringify({ ...manifest, tools: { echo: { ...manifest.tools.echo, input: deep } } }, null, 2);
    const json = await locations(write("mcp.yaml", bad));
    const yaml = await locations(write("mcp.yaml", `# comment\n${bad}`));
    expect(json.length).toBeGreaterThanOrEqual(2);
    expect(json.every((l) => !l.startsWith("1:1 "))).toBe(true);
    expect(json).toEqual(yaml.map((l) => l.replace(/^(\d+)/, (n) => String(Number(n) - 1))));
  });

  it("indented with tabs (JSON white space) take the same path: the same code, problems at the same positions as YAML", async () => {
    const tabbed = JSON.stringify(manifest, null, "\t");
    expect(parseSource("mcp.yaml", tabbed).source?.value).toEqual(manifest);
    const fromTabs = await generateManifest(write("mcp.yaml", tabbed));
    const fromSpaces = await generateManifest(write("mcp.yaml", JSON.stringify(manifest, null, 2)));
    if (!fromTabs.ok || !fromSpaces.ok) throw new Error("generation failed");
    expect([...fromTabs.generated.files.values()].map((t) => t.replace(/^\/\/ Source: .*$/m, ""))).toEqual(
      [...fromSpaces.generated.files.values()].map((t) => t.replace(/^\/\/ Source: .*$/m, "")),
    );
    const bad = JSON.stringify(
      {
        ...manifest,
        outptu: "typo",
        tools: {
          echo: {
            ...manifest.tools.echo,
            input: { type: "object", properties: { n: { type: "number", minimum: "low" } } },
          },
        },
      },
      null,
      "\t",
    );
    const json = await locations(write("mcp.yaml", bad));
    const yaml = await locations(write("mcp.yaml", `# comment\n${bad}`));
    expect(json.length).toBeGreaterThanOrEqual(2);
    expect(json).toEqual(yaml.map((l) => l.replace(/^(\d+)/, (n) => String(Number(n) - 1))));
  });

  it("leave duplicate keys to the YAML parser, which reports them", async () => {
    const messages = await locations(write("mcp.yaml", '{"mcpgen": 1, "mcpgen": 1}'));
    expect(messages.join("\n")).toContain("duplicate key");
  });

  it("refuse duplicate keys JSON.parse would take silently, however deep and however escaped, at the second key", () => {
    const cases = [
      ['{\n  "a": {"b": 1,\n    "b": 2}\n}', "3:5"],
      ['{"k\\"": "v\\":", "x": [{"y": 1}],\n "k\\"": 2}', "2:2"],
    ] as const;
    for (const [text, at] of cases) {
      const parsed = parseSource("mcp.yaml", text);
      expect(parsed.source, text).toBeUndefined();
      expect(
        parsed.diagnostics.map((d) =>
          "line" in d.location ? `${d.location.line}:${d.location.col} ${d.message}` : d.message,
        ),
      ).toEqual([`${at} duplicate key; each key may appear once in a mapping`]);
    }
    // A string value that looks like a key is no key.
    expect(parseSource("mcp.yaml", '{"a": "b\\":", "c": "d :"}').source?.value).toEqual({ a: 'b":', c: "d :" });
  });

  it("refuse numbers JSON.parse reads as infinite, and values nested deeper than any manifest, with their positions", () => {
    const infinite = parseSource("mcp.yaml", '{"a": [1,\n 1e999]}');
    expect(
      infinite.diagnostics.map((d) =>
        "line" in d.location ? `${d.location.line}:${d.location.col} ${d.message}` : d.message,
      ),
    ).toEqual(["2:2 numbers must be finite; quote it if you meant a string"]);
    const deep = parseSource("mcp.yaml", `{"a": ${"[".repeat(300)}${"]".repeat(300)}}`);
    expect(deep.source).toBeUndefined();
    expect(deep.diagnostics[0]?.message).toContain("nest more than 256 levels");
  });
});
