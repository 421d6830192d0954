// The types of tool schemas are usually read straight from the schema (generator/emit/
// types/schema-types.ts) instead of through json-schema-to-typescript. Both must write the
// same declaration, byte for byte: every schema here goes through both paths, the direct
// one may decline (undefined) but never differ. The corpus is every tool schema of the
// repository's manifests, the validator compiler's schema corpus, and a few thousand
// generated schemas built from the shapes tools use, with hostile descriptions, keys and
// enum values.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { catalogTools } from "../../bench/workload/catalog.js";
import { formatTypeScript } from "../../generator/emit/format.js";
import { compiledUnit, normaliseSchema } from "../../generator/emit/json-schema-types.js";
import { schemaDeclaration } from "../../generator/emit/types/schema-types.js";
import { withDefaultsRequired } from "../../generator/emit/types/emit.js";
import type { JsonValue } from "../../generator/load/source.js";
import { corpus } from "./fixtures/compile-schema/corpus.js";
import { allRevisions, repoRoot, schemaDir } from "../support/paths.js";
import { loadProtocolSchema } from "../../generator/load/protocol.js";
import { refName as protocolRefName } from "../../generator/model/protocol.js";
import { absoluteSpecLinks, formattedNamespace, laidOutNamespace } from "../../generator/emit/protocol/emit.js";
import { buildProtocolModel } from "../../generator/model/protocol.js";

type Json = Record<string, unknown>;

const manifests = [
  "examples/weather/mcp.yaml",
  "examples/everything/mcp.yaml",
  "test/golden/all-revisions/mcp.yaml",
  "test/golden/legacy-server/mcp.yaml",
  "test/golden/modern-tools/mcp.yaml",
  "test/interop/everything/mcp.yaml",
  "test/conformance/server/mcp.yaml",
  "bench/workload/mcp.yaml",
];

/** Every tool input and output schema of the manifests, labelled "path tool input|output". */
function manifestSchemas(): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const path of manifests) {
    const manifest = parse(readFileSync(join(repoRoot, path), "utf8")) as { tools?: Record<string, Json> };
    for (const [key, tool] of Object.entries(manifest.tools ?? {})) {
      for (const what of ["input", "output"]) if (tool[what] !== undefined) out.push([`${path} ${key} ${what}`, tool[what]]);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Generated schemas: a small deterministic generator over the shapes tool schemas use

const hostile = ["", "plain", "*/ /* `${x}` \" ' \\", "it's \"quoted\"", "line one\nline two", "  padded  ", "@deprecated old", "x".repeat(120), "ünïcödé 你好", "\u2028", "trailing *"];
const keys = ["id", "name", "with-dash", "1st", "$dollar", "_under", "quote\"d", "it's", "*/", "a b", "x".repeat(90), "你好"];

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function generated(count: number): unknown[] {
  const next = random(2026);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const maybe = (p: number) => next() < p;
  const schema = (depth: number): Json => {
    const out: Json = {};
    const kind = pick(
      depth > 2
        ? ["string", "number", "integer", "boolean", "enum", "const", "ref", "null", "types"]
        : ["string", "number", "integer", "boolean", "enum", "const", "object", "object", "array", "array", "ref", "open", "map", "null", "any", "types", "anyOf", "oneOf", "allOf"],
    );
    if (maybe(0.4)) out.description = pick(hostile);
    switch (kind) {
      case "enum": {
        const values = [pick(hostile), pick(keys), next() < 0.3 ? Math.floor(next() * 2000 - 1000) : pick(["a", "b", "c"]), 1e21, 0.5, true, null];
        const chosen = values.slice(0, 1 + Math.floor(next() * values.length));
        if (maybe(0.3) && chosen.every((v) => typeof v === "string")) out.type = "string";
        out.enum = chosen;
        break;
      }
      case "const":
        out.const = pick(["fixed", 42, -3, false, "q\"'`"]);
        break;
      case "ref":
        out.$ref = "#/$defs/leaf";
        break;
      case "object": {
        out.type = "object";
        const properties: Json = {};
        const n = Math.floor(next() * 5);
        for (let i = 0; i < n; i++) properties[`${pick(keys)}${i}`] = schema(depth + 1);
        out.properties = properties;
        const names = Object.keys(properties);
        out.required = names.filter(() => maybe(0.5));
        if (maybe(0.3)) out.additionalProperties = pick([false, true, {}]);
        break;
      }
      case "map":
        out.type = "object";
        out.additionalProperties = schema(depth + 1);
        break;
      case "open":
        out.type = "object";
        break;
      case "array":
        out.type = "array";
        if (maybe(0.9)) out.items = schema(depth + 1);
        if (maybe(0.3)) out.minItems = 1;
        if (maybe(0.3)) out.maxItems = 5;
        if (maybe(0.2)) out.uniqueItems = true;
        break;
      case "any":
        break;
      case "types":
        out.type = [pick(["string", "number", "integer"]), pick(["boolean", "null"]), ...(maybe(0.3) ? ["null"] : [])];
        break;
      case "anyOf":
      case "oneOf":
      case "allOf": {
        const members = Array.from({ length: 1 + Math.floor(next() * 4) }, () => schema(depth + 1));
        out[kind] = members;
        if (maybe(0.1)) out.type = "object";
        break;
      }
      default:
        out.type = kind;
        if (kind === "string" && maybe(0.3)) out.pattern = "^a*/$";
        if (kind !== "string" && kind !== "boolean" && kind !== "null" && maybe(0.3)) out.minimum = 0;
        if (maybe(0.1)) out.default = kind === "string" ? "d" : 1;
    }
    return out;
  };
  return Array.from({ length: count }, () => {
    const root = schema(0);
    return root.type === "object" && maybe(0.7) ? root : { type: "object", properties: { value: root }, required: maybe(0.5) ? ["value"] : [] };
  });
}

// ---------------------------------------------------------------------------------------

const refName = (ref: string) => (ref === "#/$defs/leaf" ? "Leaf" : undefined);

/** The declaration through json-schema-to-typescript and prettier, at the margin or `indent` columns in (inside a namespace, as protocol.gen.ts has it). */
async function reference(name: string, normalised: unknown, indent: 0 | 2): Promise<string> {
  const unit = await compiledUnit(name, normalised);
  if (indent === 0) return unit.formatted ? unit.text : await formatTypeScript(unit.text);
  const wrapped = await formatTypeScript(`export declare namespace N {\n${unit.text}}\n`);
  return wrapped.slice(wrapped.indexOf("{\n") + 2, wrapped.lastIndexOf("}"));
}

async function compare(schema: unknown, index: number, options: { refName: (ref: string) => string | undefined; describe?: (text: string) => string } = { refName }, indent: 0 | 2 = 0): Promise<boolean> {
  const normalised = normaliseSchema(schema, options) as Json;
  const name = `Type${index}`;
  const direct = schemaDeclaration(name, normalised, indent);
  if (direct === undefined) return false;
  expect(direct, JSON.stringify(schema)).toBe(await reference(name, normalised, indent));
  return true;
}

describe("types read straight from a schema", () => {
  it("equal json-schema-to-typescript's for every tool schema of the repository and the catalog, and cover all but one", async () => {
    const labelled = [...manifestSchemas(), ...catalogTools(40).map((t): [string, unknown] => [t.name, t.inputSchema])];
    const declined: string[] = [];
    for (const [i, [label, schema]] of labelled.entries()) {
      // as clients send them, and as handlers receive them (defaults filled in)
      if (!(await compare(schema, i))) declined.push(label);
      if (!(await compare(withDefaultsRequired(schema as JsonValue), i))) declined.push(`${label} (handler view)`);
    }
    // only the conformance suite's tool with allOf/if/then beside its properties needs json-schema-to-typescript
    const combinators = "test/conformance/server/mcp.yaml json_schema_2020_12_tool input";
    expect(declined).toEqual([combinators, `${combinators} (handler view)`]);
  });

  it("equal json-schema-to-typescript's for every definition of the five protocol revisions, at the margin and inside a namespace", async () => {
    const options = { refName: protocolRefName, describe: absoluteSpecLinks };
    for (const revision of allRevisions) {
      const { schema } = loadProtocolSchema(revision, { schemaDir }, { file: "test" });
      const declined: string[] = [];
      for (const [i, definition] of Object.values(schema!.definitions).entries()) {
        if (!(await compare(definition, i, options, 0))) declined.push(Object.keys(schema!.definitions)[i]!);
        await compare(definition, i, options, 2);
      }
      // protocol.gen.ts is laid out without prettier only when every definition takes the direct path
      expect(declined, revision).toEqual([]);
    }
  }, 120_000);

  it("equal json-schema-to-typescript's on the validator corpus where they apply", async () => {
    let direct = 0;
    for (const [i, c] of corpus.entries()) if (await compare(c.schema, i)) direct++;
    expect(direct).toBeGreaterThan(20);
  });

  it("equal json-schema-to-typescript's on generated schemas with hostile text", async () => {
    const schemas = generated(1500);
    let direct = 0;
    for (const [i, schema] of schemas.entries()) if (await compare(schema, i)) direct++;
    expect(direct).toBeGreaterThan(schemas.length * 0.6);
  }, 120_000);

  it("lay out protocol namespaces exactly as json-schema-to-typescript and prettier write them", async () => {
    for (const revision of ["2026-07-28", "2024-11-05"] as const) {
      const { schema } = loadProtocolSchema(revision, { schemaDir }, { file: "test" });
      const protocol = buildProtocolModel(schema!);
      const direct = laidOutNamespace(protocol);
      expect(direct, revision).toBeDefined();
      expect(direct, revision).toBe(await formattedNamespace(protocol));
    }
  }, 120_000);
});
