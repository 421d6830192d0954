// The layouts written without prettier (data literals, import and re-export lines, the
// server's Names interface and create function, the code writer) must print exactly what
// prettier prints, at widths around 100 columns and with strings hostile to generators.
import { CodeBlockWriter } from "ts-morph";
import { describe, expect, it } from "vitest";
import { Code, codeLiteral, docComment, stringLiteral } from "../../generator/emit/escape.js";
import { formatTypeScript } from "../../generator/emit/format.js";
import { CodeWriter } from "../../generator/emit/layout/code-writer.js";
import { dataNode, dataUnit, layoutDataDeclaration } from "../../generator/emit/layout/data.js";
import { moduleLine, type ModuleKeyword } from "../../generator/emit/layout/module-lines.js";
import { arrow, code, definitionUnit, json, list, record, string, token } from "../../generator/emit/server/definition.js";
import { functionDeclaration, namesInterface } from "../../generator/emit/server/layout.js";
import { Unsupported } from "../../generator/emit/layout/expression.js";
import { layoutStatement, renderPieces } from "../../generator/emit/layout/print.js";

const hostile = ["*/ /* `${x}` \" ' \\ \u2028 \u2029 </script>", "it's", 'say "hi"', "`${a}`", "tab\there", "\u0001", "naïve 日本語"];

/** Values around the width limit: strings and keys padded so lines end near column 100. */
function samples(): unknown[] {
  const out: unknown[] = [];
  for (let width = 60; width <= 104; width += 1) {
    const s = "x".repeat(width - 20);
    out.push({
      type: "object",
      description: s,
      [`key${"k".repeat(width % 40)}`]: `${s}${hostile[width % hostile.length]}`,
      enum: [s.slice(0, width % 50), "b", hostile[width % hostile.length], null, true, -1, 0.5],
      numbers: width % 3 === 0 ? [1, 2, 3] : [1e21, 0.5, -0, -5, 1e-7, 123456789, width],
      nested: { anyOf: [{ type: "string", maxLength: width }, { type: "null" }], empty: {}, none: [], list: [[s.slice(0, 30), "a"], ["b"]] },
      "quoted-key": { "a-b": 1, "c d": [s.slice(0, width - 40)], [hostile[width % 3]!]: hostile[1] },
      tags: Array.from({ length: width % 12 }, (_, i) => `tag-${i}-${"t".repeat(width % 9)}`),
      ref: new Code("someIdentifier"),
    });
  }
  return out;
}

describe("data printed in prettier's layout", () => {
  it("matches prettier for schema-like constants", async () => {
    let direct = 0;
    for (const [i, value] of samples().entries()) {
      const head = `const ${"c".repeat(i % 30)}Schema${i}`;
      const text = layoutDataDeclaration(head, () => dataNode(value, true));
      if (text === undefined) continue;
      direct++;
      expect(text).toBe(await formatTypeScript(`${head} = ${codeLiteral(value)};`));
    }
    expect(direct).toBeGreaterThan(20);
  });

  it("matches prettier for objects written on one line (flat when they fit)", async () => {
    for (const width of [70, 80, 90, 95, 98, 99, 100, 101, 102, 110]) {
      const value = { name: "n".repeat(width - 50), version: "1.0.0", title: hostile[width % hostile.length], icons: [{ src: "a", sizes: ["1x1"] }] };
      const head = "export const info";
      const text = layoutDataDeclaration(head, () => dataNode(value, false));
      expect(text).toBe(await formatTypeScript(`${head} = ${JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")};`));
    }
  });

  it("leaves what it does not model to the general paths, with the same text", async () => {
    const fill = { enum: Array.from({ length: 40 }, (_, i) => i * 1000) };
    expect(layoutDataDeclaration("const numbers", () => dataNode(fill, true))).toBeUndefined();
    expect(layoutDataDeclaration("const proto", () => dataNode(JSON.parse('{"__proto__": 1}'), true))).toBeUndefined();
    expect(layoutDataDeclaration("const unicode", () => dataNode({ café: 1 }, true))).toBeUndefined();
    const declarations = [
      { head: "const a", value: { type: "string" } },
      { head: "const b", value: fill },
    ];
    const unit = dataUnit("/** Both. */\n", declarations);
    const text = unit.formatted ? unit.text : await formatTypeScript(unit.text);
    expect(text).toBe(await formatTypeScript(`/** Both. */\n${declarations.map((d) => `${d.head} = ${codeLiteral(d.value)};`).join("\n")}\n`));
  });
});

describe("import and re-export lines", () => {
  it("match prettier at, under and over 100 columns", async () => {
    const keywords: ModuleKeyword[] = ["import", "import type", "export", "export type"];
    for (const keyword of keywords) {
      for (let width = 90; width <= 106; width++) {
        const module = "./types.gen.js";
        const fixed = `${keyword} { A, B } from "${module}";`.length;
        const specifiers = ["A", "B", `C${"c".repeat(width - fixed - 3)}`];
        if (keyword === "import") specifiers.push("type T");
        const line = moduleLine(keyword, specifiers, module);
        expect(`${line}\n`).toBe(await formatTypeScript(`${keyword} { ${specifiers.join(", ")} } from "${module}";`));
      }
      const many = Array.from({ length: 300 }, (_, i) => `Name${i}`);
      expect(`${moduleLine(keyword, many, "mcp-gen/runtime")}\n`).toBe(await formatTypeScript(`${keyword} { ${many.join(", ")} } from "mcp-gen/runtime";`));
      const single = [`Very${"Long".repeat(30)}`];
      expect(`${moduleLine(keyword, single, "./x.js")}\n`).toBe(await formatTypeScript(`${keyword} { ${single[0]} } from "./x.js";`));
    }
  });
});

describe("server declarations", () => {
  it("Names interface matches prettier", async () => {
    for (let n = 0; n < 60; n++) {
      const count = n < 40 ? 2 + (n % 4) : n - 30;
      const names = Array.from({ length: count }, (_, i) => `tool_${i}_${"x".repeat((n * 7 + i) % 30)}${hostile[(n + i) % hostile.length]}`);
      const comment = docComment(`Names ${hostile[0]}`);
      const head = "export interface WeatherNames extends ServerNames {";
      const unions = [["tools", names], ["prompts", names.slice(0, 2)], ["resources", []], ["resourceTemplates", ["one"]]] as const;
      const text = namesInterface(comment, head, unions);
      const raw = `${comment}${head}\n${unions.map(([k, v]) => `readonly ${k}: ${v.length === 0 ? "never" : v.map(stringLiteral).join(" | ")};`).join("\n")}\n}\n`;
      expect(text).toBe(await formatTypeScript(raw));
    }
  });

  it("create function matches prettier", async () => {
    let laidOut = 0;
    for (let length = 1; length <= 60; length++) {
      const base = "W".repeat(length);
      const comment = docComment(`Creates the ${base} server.`);
      const params = [`handlers: ${base}Handlers`, "options?: ServerOptions"];
      const ret = `McpServer<${base}Handlers, ${base}Names>`;
      const call = { callee: "createServer", typeArguments: [`${base}Handlers`, `${base}Names`], args: [`${base.toLowerCase()}ServerDefinition`, "handlers", "options"] };
      const text = functionDeclaration(comment, `create${base}Server`, params, ret, call);
      const statement = `return createServer<${base}Handlers, ${base}Names>(${call.args.join(", ")});`;
      const expected = await formatTypeScript(`${comment}export function create${base}Server(${params.join(", ")}): ${ret} {\n${statement}\n}\n`);
      if (text === undefined) continue;
      expect(text, base).toBe(expected);
      laidOut++;
    }
    // every server name up to 30 characters; longer ones are left to prettier
    expect(laidOut).toBeGreaterThanOrEqual(30);
  });

  it("never reads type arguments as comparisons", () => {
    expect(() => layoutStatement("const a = f<X>(b);", 0)).toThrow(Unsupported);
    expect(layoutStatement("const a = f < X && b > c;", 0)).toBe("const a = f < X && b > c;");
  });
});

describe("server definition", () => {
  /** Tool entries whose names, validators and handler calls end around column 100. */
  const definitionEntries = (n: number) => {
    const pad = "x".repeat(n % 28);
    const tools = Array.from({ length: 1 + (n % 3) }, (_, i) => {
      const member = `tool${i}${pad}${"y".repeat((n * 3 + i) % 17)}`;
      return record([
        ["name", string(`tool_${i}_${pad}${hostile[(n + i) % hostile.length]}`)],
        ["validateInput", token(`validate${member}Input`)],
        ["validateOutput", i % 2 === 0 ? token(`validate${member}Output`) : undefined],
        ["call", arrow("(handlers, args, ctx)", `handlers.tools.${member}(args as ${member}Args, ctx)`)],
      ]);
    });
    const resources = Array.from({ length: n % 3 }, (_, i) =>
      record([
        ["uri", string(`file:///${pad}/${i}${hostile[(n + i) % hostile.length]}`)],
        ["mimeType", string("text/plain")],
        ["subscribe", n % 2 === 0 ? token("true") : undefined],
        ["cache", record([["ttlMs", token(`${1000 * n}`)], ["scope", string("private")]])],
        ["read", arrow("(handlers, ctx)", `handlers.resources.r${i}${pad}${pad}(ctx)`)],
      ]),
    );
    const prompts = Array.from({ length: n % 2 }, () =>
      record([
        ["name", string(`p${pad}`)],
        ["arguments", list([record([["name", string(hostile[n % hostile.length]!)], ["required", token("true")]])])],
        ["get", arrow("(handlers, args, ctx)", `handlers.prompts.p${pad}(args as unknown as P${pad}Args, ctx)`)],
      ]),
    );
    const info = { name: `n${pad}${hostile[n % hostile.length]}`, version: "1.0.0" };
    return [
      ["info", json(info)],
      ["instructions", n % 4 === 0 ? string(`Use ${pad}${hostile[(n + 2) % hostile.length]}`) : undefined],
      ["revisions", list([string("2026-07-28"), string("2025-11-25")])],
      ["infoByRevision", record([["2026-07-28", json(info)], ["2025-11-25", json({ name: info.name })]])],
      ["tools", list(tools)],
      ["resources", list(resources)],
      ["resourceTemplates", list([])],
      ["prompts", list(prompts)],
      ["listings", record([["2026-07-28", token("listing2026_07_28")], ["2025-11-25", token("listing2026_07_28")]])],
      ["features", n % 3 === 0 ? record([["resources", token("resourcesFeature")], ["prompts", token("promptsFeature")]]) : undefined],
    ] as const;
  };

  it("matches prettier for tools, resources and prompts around 100 columns", async () => {
    let direct = 0;
    for (let n = 0; n < 90; n++) {
      const head = `export const ${"d".repeat(n % 20)}ServerDefinition: ServerDefinition<Handlers>`;
      const entries = definitionEntries(n);
      const unit = definitionUnit("/** Definition. */\n", head, entries);
      const raw = `/** Definition. */\n${head} = {\n${entries.map(([k, v]) => (v === undefined ? "" : `${k}: ${v.code},\n`)).join("")}};\n`;
      if (unit.formatted) direct++;
      expect(unit.formatted ? unit.text : await formatTypeScript(unit.text)).toBe(await formatTypeScript(raw));
    }
    expect(direct).toBeGreaterThan(40);
  });

  it("leaves code outside the model to the general paths", async () => {
    const entries = [
      ["pattern", code('new RegExp("^a$")')],
      ["read", arrow("(handlers, v, ctx)", 'handlers.resourceTemplates.t({ a: v.a ?? "" }, ctx)')],
    ] as const;
    const unit = definitionUnit("", "export const d: D", entries);
    const text = unit.formatted ? unit.text : await formatTypeScript(unit.text);
    expect(text).toBe(await formatTypeScript(`export const d: D = {\n${entries.map(([k, v]) => `${k}: ${v.code},`).join("\n")}\n};\n`));
  });

  it("formats only the entries outside the model, and gets prettier's text for the whole", async () => {
    let toolsLaidOut = 0;
    for (let n = 0; n < 90; n++) {
      const head = `export const ${"d".repeat(n % 20)}ServerDefinition: ServerDefinition<Handlers>`;
      const block = `(_handlers, input) => {\nconst args = input as unknown as A${"a".repeat(n % 30)};\nreturn [{ role: "user" as const, content: { type: "text" as const, text: "x" + args.v${"v".repeat(n % 50)} } }];\n}`;
      const entries = [
        ...definitionEntries(n),
        ["resourceTemplates", list([record([["pattern", code(`new RegExp(${JSON.stringify("^".repeat(n))})`)], ["get", code(block)]])])],
      ] as const;
      const unit = definitionUnit("/** Definition. */\n", head, entries);
      const raw = `/** Definition. */\n${head} = {\n${entries.map(([k, v]) => (v === undefined ? "" : `${k}: ${v.code},\n`)).join("")}};\n`;
      const expected = await formatTypeScript(raw);
      expect(unit.formatted).toBe(false);
      expect(await formatTypeScript(unit.text)).toBe(expected);
      // the pieces: the template entry (and what else data.ts declines) for prettier, the tool table laid out here
      const properties = (unit.pieces ?? []).filter((p) => typeof p !== "string");
      expect(properties.some((p) => p.property.startsWith("resourceTemplates:"))).toBe(true);
      if (!properties.some((p) => p.property.startsWith("tools:"))) toolsLaidOut++;
      const formatted: string[] = [];
      const spy = async (text: string) => (formatted.push(text), formatTypeScript(text));
      expect(await renderPieces(unit.pieces!, spy)).toBe(expected);
      expect(formatted).toHaveLength(properties.length);
    }
    expect(toolsLaidOut).toBeGreaterThan(40);
  }, 60_000);
});

describe("CodeWriter", () => {
  it("writes what ts-morph's CodeBlockWriter writes for the calls emitters make", () => {
    const ours = new CodeWriter();
    const theirs = new CodeBlockWriter({ indentNumberOfSpaces: 2, useSingleQuote: false, newLine: "\n" });
    const script = (w: { write(t: string): unknown; newLine(): unknown; blankLine(): unknown; indent(n?: number): unknown }) => {
      w.blankLine();
      w.write("/** doc */\n");
      w.write("export type A = 1;");
      w.blankLine();
      w.blankLine();
      w.indent();
      w.write('readonly x: "a\\nb";');
      w.newLine();
      w.indent(3);
      w.write("`${x}\r\ny` 'q' // c\r\n/* x */ \"s\"");
      w.write("");
      w.newLine();
      w.write("end\r");
      w.blankLine();
    };
    script(ours);
    script(theirs);
    expect(ours.toString()).toBe(theirs.toString());
  });
});
