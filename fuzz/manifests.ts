// The manifest fuzz job: `npm run fuzz:manifests` (see fuzz/README.md). Seeded, mutated
// manifests — the repository's own, changed the way a hostile or careless author would —
// go through the generator in-process, each checked against one oracle:
// - generate() never throws, and answers within a time limit (a watchdog restarts the
//   worker after a hang and records the case);
// - a refused manifest gets at least one diagnostic, each naming a file, with a message that
//   is no leaked internal ("[object Object]", "internal error", a JavaScript TypeError);
// - an accepted one yields files headed by the banner, which compile under the strict flags
//   (batched into one TypeScript program every few accepted cases), validators that give
//   ajv's verdict on values near each schema, and a server that answers every request.
// Failing manifests are saved to fuzz/failures/manifest-<seed>-<case>.yaml.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolvePointer } from "../generator/load/source.js";
import { deriveSeed, Rng } from "./generate.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const schemaDir = path.resolve(root, process.env.MCP_GEN_SCHEMA_DIR ?? "../shared/mcp-schema");

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  const value = at < 0 ? fallback : Number(argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`fuzz:manifests: ${name} needs a number`);
  return Math.floor(value);
};
const SEED = option("--seed", 20261127) >>> 0;
const CASES = option("--cases", argv.includes("--quick") ? 300 : 3000);
const COMPILE_EVERY = option("--compile-every", 25); // 0: never compile
const FROM = option("--from", 0);
const SLOW_MS = 10_000;
const HANG_MS = 60_000;

/** Manifests mutated, each in a copy of its folder (its $ref'd schemas and pages beside it). */
const bases = [
  "examples/weather/mcp.yaml",
  "examples/notes/mcp.yaml",
  "examples/everything/mcp.yaml",
  "test/golden/legacy-server/mcp.yaml",
  "test/golden/modern-tools/mcp.yaml",
  "test/golden/all-revisions/mcp.yaml",
  "test/conformance/server/mcp.yaml",
];

// ---------------------------------------------------------------------------------------
// Mutations

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const hostileStrings = [
  "",
  " ",
  "*/",
  "/*",
  "${x}",
  "`",
  "\u2028",
  "\u2029",
  "a\nb",
  "a\r\nb",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "\\",
  "'",
  '"',
  "{{x}}",
  "{{~x~}}",
  "{{#if x}}y{{/if}}",
  "{x}",
  "{user.id}",
  "{+x}",
  "ü",
  "日本",
  "😀",
  "\ud800",
  "\u0000",
  "\u007f",
  "x".repeat(300),
  "a b",
  "-",
  ".",
  "0",
  "1e3",
  "true",
  "null",
  "#/$defs/x",
  "./x.json",
  "../x.json",
  "https://example.com/s.json",
  "#",
  "#/",
  "#/$defs/",
  "ui://x/y",
  "file:///etc/passwd",
  "^(a+)+$",
  "[",
  "(?<n>x)",
  "\\p{L}",
  "$ref",
  "x-y",
  "</script>",
  "<!--",
];
const schemaKeywords = [
  "type",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "items",
  "prefixItems",
  "enum",
  "const",
  "default",
  "examples",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "$ref",
  "$defs",
  "definitions",
  "$schema",
  "$id",
  "$anchor",
  "title",
  "description",
  "format",
  "deprecated",
  "readOnly",
  "writeOnly",
  "nullable",
  "requird",
  "x-extra",
];
const manifestKeys = [
  "mcpgen",
  "server",
  "output",
  "generate",
  "protocol",
  "tools",
  "resources",
  "resourceTemplates",
  "prompts",
  "apps",
  "auth",
  "input",
  "output",
  "title",
  "description",
  "annotations",
  "task",
  "asks",
  "ui",
  "identifier",
  "uri",
  "uriTemplate",
  "variables",
  "mimeType",
  "arguments",
  "messages",
  "role",
  "text",
  "complete",
  "required",
  "name",
  "version",
  "instructions",
  "client",
  "runtime",
  "importExtension",
  "icons",
  "_meta",
  "size",
  "html",
  "csp",
  "prefersBorder",
  "ttlMs",
  "pollIntervalMs",
  "subscribe",
  "listChanged",
];
const types = ["string", "number", "integer", "boolean", "object", "array", "null"];

function randomScalar(rng: Rng): Json {
  switch (rng.int(7)) {
    case 0:
      return rng.pick(hostileStrings);
    case 1:
      return rng.pick([0, -1, 1, 0.5, -0.5, 1e308, 2 ** 53 + 2, -(2 ** 31), 7, 100, 1e-7]);
    case 2:
      return rng.chance(0.5);
    case 3:
      return null;
    case 4:
      return rng.pick(types);
    case 5:
      return rng.pick(schemaKeywords);
    default:
      return rng.pick(hostileStrings) + rng.pick(hostileStrings);
  }
}

/** Keywords whose value is no schema, and values of the type each expects. */
const plainValues: [readonly string[], (rng: Rng) => Json][] = [
  [
    ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
    (rng) => rng.pick([0, 1, -1, 0.5, 0.1, 3, 100, 1e-9, 1e21]),
  ],
  [
    ["minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties"],
    (rng) => rng.int(5),
  ],
  [["pattern", "format", "title", "description", "$comment"], (rng) => String(rng.pick(hostileStrings))],
  [["uniqueItems", "deprecated", "readOnly", "writeOnly"], (rng) => rng.chance(0.5)],
];

/** A random JSON Schema, mostly plausible, sometimes not. */
function randomSchema(rng: Rng, depth: number): Json {
  if (depth > 3 || rng.chance(0.15)) return rng.chance(0.7) ? { type: rng.pick(types) } : rng.pick([true, false, {}]);
  const schema: { [key: string]: Json } = {};
  const type = rng.chance(0.2) ? [rng.pick(types), rng.pick(types)] : rng.pick(types);
  if (rng.chance(0.85)) schema.type = type;
  const count = 1 + rng.int(4);
  for (let i = 0; i < count; i++) {
    const keyword = rng.pick(schemaKeywords);
    switch (keyword) {
      case "properties":
      case "patternProperties":
      case "$defs":
      case "dependentSchemas": {
        const map: { [key: string]: Json } = {};
        for (let j = rng.int(4); j >= 0; j--)
          map[rng.chance(0.6) ? `p${rng.int(5)}` : String(rng.pick(hostileStrings))] = randomSchema(rng, depth + 1);
        schema[keyword] = map;
        break;
      }
      case "items":
      case "additionalProperties":
      case "not":
      case "if":
      case "then":
      case "else":
      case "contains":
      case "propertyNames":
        schema[keyword] = randomSchema(rng, depth + 1);
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
      case "prefixItems":
        schema[keyword] = Array.from({ length: rng.int(4) }, () => randomSchema(rng, depth + 1));
        break;
      case "required":
        schema[keyword] = Array.from({ length: 1 + rng.int(3) }, () =>
          rng.chance(0.7) ? `p${rng.int(5)}` : randomScalar(rng),
        );
        break;
      case "enum":
      case "examples":
        schema[keyword] = Array.from({ length: rng.int(4) }, () => randomScalar(rng));
        break;
      case "$ref":
        schema[keyword] = rng.pick([
          "#",
          "#/$defs/p0",
          "#/$defs/p1",
          "#/properties/p0",
          "#/$defs/nope",
          "./schemas/forecast.json",
          String(rng.pick(hostileStrings)),
        ]);
        break;
      default: {
        // a value of the keyword's own type, mostly
        const plain = plainValues.find(([keywords]) => keywords.includes(keyword))?.[1];
        schema[keyword] =
          plain !== undefined && rng.chance(0.9)
            ? plain(rng)
            : rng.chance(0.3)
              ? randomSchema(rng, depth + 1)
              : randomScalar(rng);
      }
    }
  }
  return schema;
}

function randomValue(rng: Rng, depth: number): Json {
  switch (rng.int(5)) {
    case 0:
      return randomSchema(rng, depth);
    case 1:
      return Array.from({ length: rng.int(4) }, () => (depth > 3 ? randomScalar(rng) : randomValue(rng, depth + 1)));
    case 2: {
      const out: { [key: string]: Json } = {};
      for (let j = rng.int(4); j >= 0; j--)
        out[rng.chance(0.5) ? rng.pick(manifestKeys) : String(randomScalar(rng))] =
          depth > 3 ? randomScalar(rng) : randomValue(rng, depth + 1);
      return out;
    }
    default:
      return randomScalar(rng);
  }
}

/** Every container in `value` with the key or index of each child. */
function places(value: Json, into: { parent: Json[] | { [key: string]: Json }; key: string | number }[] = []) {
  if (Array.isArray(value)) value.forEach((child, i) => (into.push({ parent: value, key: i }), places(child, into)));
  else if (value !== null && typeof value === "object")
    for (const key of Object.keys(value)) (into.push({ parent: value, key }), places(value[key]!, into));
  return into;
}

/** Which keys of a manifest name things (tools, prompts, properties …): renaming them keeps it valid. */
const namingMaps = new Set([
  "tools",
  "prompts",
  "resources",
  "resourceTemplates",
  "apps",
  "properties",
  "$defs",
  "arguments",
  "variables",
  "patternProperties",
]);

/** A change that keeps the manifest's shape: hostile text where text was, names, schemas. */
function gentleMutate(rng: Rng, manifest: Json): void {
  const all = places(manifest);
  if (all.length === 0) return;
  const { parent, key } = rng.pick(all);
  const value = (parent as Record<string | number, Json>)[key]!;
  const set = (next: Json) => ((parent as Record<string | number, Json>)[key] = next);
  if (typeof value === "string")
    set(rng.chance(0.7) ? String(rng.pick(hostileStrings)) : `${value}${rng.pick(hostileStrings)}`);
  else if (typeof value === "number") set(rng.pick([0, 1, 2, 7, 0.5, 100, 1e9]));
  else if (value !== null && typeof value === "object" && !Array.isArray(value) && namingMaps.has(String(key))) {
    // rename one entry, or add a tool with a random schema
    const names = Object.keys(value);
    if (names.length > 0 && rng.chance(0.6)) {
      const name = rng.pick(names);
      const entry = value[name]!;
      delete value[name];
      value[
        rng.chance(0.5) ? String(rng.pick(hostileStrings)) : `${name}${rng.pick(["_2", "-x", ".v1", "X", "ü", " x"])}`
      ] = entry;
    } else if (key === "tools")
      value[`fuzz_${rng.int(100)}`] = {
        description: String(rng.pick(hostileStrings)),
        input: {
          type: "object",
          properties: { p0: randomSchema(rng, 1), p1: randomSchema(rng, 1) },
          required: rng.chance(0.5) ? ["p0"] : [],
        },
        ...(rng.chance(0.5) ? { output: randomSchema(rng, 0) } : {}),
      };
    else if (key === "properties") value[`p${rng.int(9)}`] = randomSchema(rng, 1);
  } else if (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    (key === "input" || key === "output")
  ) {
    set(rng.chance(0.5) ? { type: "object", properties: { p0: randomSchema(rng, 1) } } : randomSchema(rng, 0));
  }
}

function mutate(rng: Rng, manifest: Json): void {
  const all = places(manifest);
  if (all.length === 0) return;
  const { parent, key } = rng.pick(all);
  const get = () => (parent as Record<string | number, Json>)[key]!;
  const set = (value: Json) => ((parent as Record<string | number, Json>)[key] = value);
  switch (rng.int(9)) {
    case 0:
      set(randomScalar(rng));
      break;
    case 1:
      set(randomValue(rng, 1));
      break;
    case 2:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      break;
    case 3: {
      if (Array.isArray(parent)) parent.push(structuredClone(get()));
      else
        parent[rng.chance(0.5) ? rng.pick(manifestKeys) : rng.pick(schemaKeywords)] = rng.chance(0.5)
          ? randomValue(rng, 1)
          : structuredClone(get());
      break;
    }
    case 4: {
      // rename a key (a tool, a property, a keyword) to something hostile
      if (Array.isArray(parent)) break;
      const value = get();
      delete parent[key as string];
      parent[String(rng.pick(hostileStrings)) + (rng.chance(0.5) ? "" : String(rng.int(3)))] = value;
      break;
    }
    case 5: {
      // a subtree copied elsewhere (a schema where a prompt stood, say)
      const other = rng.pick(all);
      set(structuredClone((other.parent as Record<string | number, Json>)[other.key]!));
      break;
    }
    case 6: {
      // a tool (or schema) with a random input/output schema
      const value = get();
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        value[rng.pick(["input", "output", "items", "properties"])] = randomSchema(rng, 0);
      else set(randomSchema(rng, 0));
      break;
    }
    case 7: {
      // a long or deep value
      let deep: Json = rng.pick(hostileStrings);
      for (let i = rng.int(60); i > 0; i--) deep = rng.chance(0.5) ? [deep] : { a: deep };
      set(deep);
      break;
    }
    default:
      set(rng.pick([[], {}, "", null, 0]));
  }
}

/** Small text-level slips: the manifest is rewritten as text after its values changed. */
function mangleText(rng: Rng, text: string): string {
  const lines = text.split("\n");
  const at = rng.int(lines.length);
  switch (rng.int(8)) {
    case 0:
      lines.splice(at, 1);
      break;
    case 1:
      lines.splice(at, 0, lines[rng.int(lines.length)]!);
      break;
    case 2:
      lines[at] = `\t${lines[at]}`;
      break;
    case 3:
      lines[at] = lines[at]!.slice(0, rng.int(lines[at]!.length + 1));
      break;
    case 4:
      lines[at] =
        `${lines[at]} ${rng.pick(["#", "&a", "*a", "!!str", "[", "{", "- x", ": y", "|", ">", "'", '"', "%YAML 1.2", "---"])}`;
      break;
    case 5:
      lines[at] = ` ${lines[at]}`;
      break;
    case 6:
      // a value given a name and used again further down
      lines[at] = lines[at]!.replace(/: (\S)/, ": &v $1");
      lines.splice(at + 1 + rng.int(Math.max(1, lines.length - at)), 0, `${lines[at]!.match(/^\s*/)![0]}x-again: *v`);
      break;
    default:
      // Windows line ends, a byte order mark, or both
      return `${rng.chance(0.5) ? "\ufeff" : ""}${lines.join(rng.chance(0.7) ? "\r\n" : "\n")}`;
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------
// Instances for the validators: near the schema (so that some pass), then bent.

function randomInstance(rng: Rng, schema: Json | undefined, root: Json, depth: number): Json {
  if (
    depth > 6 ||
    schema === undefined ||
    schema === null ||
    typeof schema !== "object" ||
    Array.isArray(schema) ||
    rng.chance(0.05)
  ) {
    return rng.chance(0.5) ? randomScalar(rng) : rng.pick([[], {}, [1, "a"], { p0: 1 }]);
  }
  const s = schema as { [key: string]: Json };
  // (the generator accepted the schema, so every "#…" $ref resolves and is well encoded)
  if (typeof s.$ref === "string" && (s.$ref === "" || s.$ref.startsWith("#")) && rng.chance(0.9))
    return randomInstance(rng, resolvePointer(root, decodeURIComponent(s.$ref.slice(1))), root, depth + 1);
  if (Array.isArray(s.enum) && s.enum.length > 0 && rng.chance(0.8)) return structuredClone(rng.pick(s.enum));
  if (s.const !== undefined && rng.chance(0.8)) return structuredClone(s.const);
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0 && rng.chance(0.5))
      return randomInstance(rng, rng.pick(list), root, depth + 1);
  }
  const type = Array.isArray(s.type) ? rng.pick(s.type) : s.type !== undefined ? s.type : rng.pick(types);
  const near = (n: Json | undefined) =>
    typeof n === "number" ? n + rng.pick([-1, -0.5, 0, 0.5, 1]) : rng.pick([0, 1, -1, 2.5, 10]);
  switch (type) {
    case "object": {
      const out: { [key: string]: Json } = {};
      const properties =
        s.properties !== null && typeof s.properties === "object" && !Array.isArray(s.properties) ? s.properties : {};
      const required = Array.isArray(s.required) ? s.required : [];
      for (const name of Object.keys(properties))
        if (required.includes(name) ? rng.chance(0.95) : rng.chance(0.5))
          out[name] = randomInstance(rng, properties[name], root, depth + 1);
      if (rng.chance(0.15))
        out[String(rng.pick(hostileStrings))] = randomInstance(rng, s.additionalProperties ?? true, root, depth + 1);
      return out;
    }
    case "array": {
      const length = rng.pick([
        0,
        1,
        2,
        3,
        typeof s.minItems === "number" ? s.minItems : 1,
        typeof s.maxItems === "number" ? s.maxItems + 1 : 4,
      ]);
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      const items = Array.from({ length: Math.min(length, 8) }, (_, i) =>
        randomInstance(rng, i < prefix.length ? prefix[i] : s.items, root, depth + 1),
      );
      if (items.length > 0 && rng.chance(0.1)) items.push(structuredClone(items[0]!));
      return items;
    }
    case "string": {
      const length =
        typeof s.minLength === "number"
          ? s.minLength
          : typeof s.maxLength === "number"
            ? s.maxLength + rng.int(2)
            : rng.int(4);
      return rng.chance(0.6) ? "ab😀cd".repeat(3).slice(0, length) : String(rng.pick(hostileStrings));
    }
    case "integer":
      return Math.round(near(s.minimum ?? s.maximum ?? s.exclusiveMinimum ?? s.multipleOf));
    case "number":
      return near(s.minimum ?? s.maximum ?? s.exclusiveMaximum ?? s.multipleOf);
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    default:
      return randomScalar(rng);
  }
}

/**
 * Differences the compiler makes on purpose (test/unit/compile-schema.test.ts, "semantics
 * beyond the ajv comparison"): a `__proto__` property, multipleOf with tolerance for binary
 * rounding, dependentRequired in draft-07, and `required` naming the empty property name
 * (ajv ignores it). Schemas holding them are not compared.
 */
const deliberate = /"__proto__"|"multipleOf"|"dependentRequired"|"required":\[(?:[^\]]*,)?""/;

// ---------------------------------------------------------------------------------------
// Serving: the generated server with handlers that answer anything, over a memory channel.

/** Handlers for every name: `handlers.tools.x(...)`, `handlers.completions.prompts.p.a(...)`, … */
function anyHandlers(rng: Rng, path: readonly string[] = []): unknown {
  return new Proxy(function handler() {}, {
    get: (_, key) => (typeof key === "string" ? anyHandlers(rng, [...path, key]) : undefined),
    has: () => true,
    apply: () => {
      switch (path[0]) {
        case "tools":
          // (a tool error result: a tool with an output schema must otherwise return structured content)
          return { content: [{ type: "text", text: "no" }], isError: true };
        case "prompts":
          return [{ role: "user", content: { type: "text", text: "hi" } }];
        case "resources":
        case "resourceTemplates":
          return rng.pick(["text", new Uint8Array([0, 255]), { text: "t", mimeType: "text/plain" }]);
        case "completions":
          return ["a", "b"];
        default:
          return undefined;
      }
    },
  });
}

/**
 * Lists everything the server offers and calls each tool (up to ten, with instances near their
 * input schemas), reads each resource and gets each prompt: every request must be answered,
 * with a result or a JSON-RPC error, within five seconds, and tools/list must name exactly the
 * manifest's tools. Returns what went wrong, "not served" without a server, or undefined.
 */
async function serveCase(
  rng: Rng,
  index: Record<string, unknown>,
  revisions: readonly string[],
  tools: readonly { key: string; schema: Json }[],
): Promise<string | undefined> {
  const { connectSession, memoryChannel, RpcError } = await import("@mcp-gen/runtime");
  const create = Object.entries(index).find(([name]) => /^create\w+Server$/.test(name))?.[1] as
    ((handlers: unknown) => Parameters<typeof memoryChannel>[0]) | undefined;
  if (create === undefined) return "not served"; // generate.server: false
  let session: Awaited<ReturnType<typeof connectSession>>;
  try {
    session = await connectSession(memoryChannel(create(anyHandlers(rng))), {
      revisions,
      timeoutMs: 5000,
      probeTimeoutMs: 2000,
    });
  } catch (error) {
    return `connecting: ${String((error as Error)?.stack ?? error)}`;
  }
  const ask = async (
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<Record<string, unknown> | undefined> => {
    try {
      return (await session.rawRequest(method, params)) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof RpcError && error.code !== -32603) return undefined;
      throw new Error(
        `${method} ${JSON.stringify(params).slice(0, 300)}: ${error instanceof RpcError ? `internal error ${error.message}` : String((error as Error)?.stack ?? error)}`,
      );
    }
  };
  try {
    const listed: string[] = [];
    for (let cursor: unknown = undefined, pages = 0; pages < 50; pages++) {
      const page = await ask("tools/list", cursor === undefined ? {} : { cursor });
      if (page === undefined) break;
      for (const tool of (page.tools ?? []) as { name: string }[]) listed.push(tool.name);
      cursor = page.nextCursor;
      if (cursor === undefined) break;
    }
    const declared = tools.map((t) => t.key);
    if (JSON.stringify([...listed].sort()) !== JSON.stringify([...declared].sort()))
      return `tools/list names ${JSON.stringify(listed)}, the manifest ${JSON.stringify(declared)}`;
    for (const tool of tools.slice(0, 10))
      await ask("tools/call", { name: tool.key, arguments: randomInstance(rng, tool.schema, tool.schema, 0) });
    const prompts = ((await ask("prompts/list"))?.prompts ?? []) as { name: string; arguments?: { name: string }[] }[];
    for (const prompt of prompts.slice(0, 10))
      await ask("prompts/get", {
        name: prompt.name,
        arguments: Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, String(rng.pick(hostileStrings))])),
      });
    const resources = ((await ask("resources/list"))?.resources ?? []) as { uri: string }[];
    for (const resource of resources.slice(0, 10)) await ask("resources/read", { uri: resource.uri });
    await ask("resources/templates/list");
    return undefined;
  } catch (error) {
    return String((error as Error).message ?? error);
  } finally {
    await session.close();
  }
}

// ---------------------------------------------------------------------------------------
// The worker: runs cases [from, to) and reports each on stdout.

async function worker(from: number, to: number): Promise<void> {
  // (loaded here, not at the top: the driver needs none of them)
  const yaml = await import("yaml");
  const { generate, loadModel } = await import("../generator/pipeline.js");
  const { typecheck, formatTypeErrors } = await import("../test/support/typecheck.js");
  const { ajvReference } = await import("../test/support/ajv-reference.js");
  const compared = { values: 0, valid: 0, skipped: 0 };
  const work = path.join(root, "test", ".tmp", `fuzz-manifests-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  const folders = bases.map((base, i) => {
    const folder = path.join(work, `base-${i}`);
    cpSync(path.dirname(path.join(root, base)), folder, {
      recursive: true,
      filter: (src) => !/node_modules|\/mcp$|\/src\/mcp$|\.gen\.ts$/.test(src),
    });
    return folder;
  });
  const originals = bases.map((base) => {
    const manifest = yaml.parse(readFileSync(path.join(root, base), "utf8")) as { generate?: { runtime?: string } };
    // (the conformance server imports the runtime's sources by a path relative to its own folder)
    if (manifest.generate?.runtime !== undefined) delete manifest.generate.runtime;
    return manifest as Json;
  });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  let batch: { index: number; base: string; files: string[]; manifest: string }[] = [];
  const compileBatch = () => {
    if (batch.length === 0) return;
    const errors = typecheck(batch.flatMap((b) => b.files));
    for (const b of batch) {
      const own = errors.filter((e) => b.files.some((f) => e.file.startsWith(path.dirname(f))));
      if (own.length > 0)
        say(
          `FAIL ${b.index} compile ${JSON.stringify(`[${b.base}] ${formatTypeErrors(own.slice(0, 3))}`)} ${JSON.stringify(b.manifest)}`,
        );
    }
    batch = [];
  };
  for (let index = from; index < to; index++) {
    const rng = new Rng(deriveSeed(SEED, index));
    const which = rng.int(bases.length);
    const manifest = structuredClone(originals[which]!);
    // Most cases change only text, names and schemas (so that many are accepted and compiled); the others anything.
    const gentle = rng.chance(0.7);
    for (let n = 1 + rng.int(gentle ? 8 : 4); n > 0; n--) (gentle ? gentleMutate : mutate)(rng, manifest);
    let text = rng.chance(0.25)
      ? JSON.stringify(manifest, null, rng.chance(0.5) ? 2 : "\t")
      : yaml.stringify(manifest, { aliasDuplicateObjects: false });
    if (!gentle && rng.chance(0.3)) text = mangleText(rng, text);
    const folder = folders[which]!;
    const file = path.join(folder, "fuzz-case.yaml");
    const out = path.join(folder, `out-${index}`);
    writeFileSync(file, text);
    say(`CASE ${index}`);
    const started = performance.now();
    let result: Awaited<ReturnType<typeof generate>>;
    try {
      result = await generate({ manifest: file, out, cwd: folder, schemaDir });
    } catch (error) {
      say(
        `FAIL ${index} throws ${JSON.stringify(`[${bases[which]}] ${String((error as Error)?.stack ?? error)}`)} ${JSON.stringify(text)}`,
      );
      continue;
    }
    const took = performance.now() - started;
    if (took > SLOW_MS)
      say(`FAIL ${index} slow ${JSON.stringify(`[${bases[which]}] ${Math.round(took)} ms`)} ${JSON.stringify(text)}`);
    if (!result.ok) {
      const bad =
        result.diagnostics.length === 0
          ? "no diagnostics"
          : result.diagnostics.find(
              (d) =>
                !d.location?.file ||
                typeof d.message !== "string" ||
                d.message === "" ||
                /\[object Object\]|internal error|TypeError|Cannot read prop|is not a function|undefined is not/.test(
                  d.message,
                ),
            );
      if (bad !== undefined)
        say(
          `FAIL ${index} diagnostic ${JSON.stringify(`[${bases[which]}] ${typeof bad === "string" ? bad : JSON.stringify(bad)}`)} ${JSON.stringify(text)}`,
        );
      else say(`REFUSED ${index} ${JSON.stringify(result.diagnostics[0]!.message.slice(0, 160))}`);
      continue;
    }
    const files: string[] = [];
    for (const [name, content] of result.generated.files) {
      if (!content.startsWith("// Code generated by mcp-gen"))
        say(`FAIL ${index} banner ${JSON.stringify(`[${bases[which]}] ${name}`)} ${JSON.stringify(text)}`);
      if (!name.endsWith(".ts")) continue;
      mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
      writeFileSync(path.join(out, name), content);
      files.push(path.join(out, name));
    }
    say(`ACCEPTED ${index}`);
    const loaded = loadModel({ manifest: file, out, cwd: folder });
    if (loaded.ok && result.generated.files.has("index.ts")) {
      const problem = await serveCase(
        rng,
        (await import(pathToFileURL(path.join(out, "index.ts")).href)) as Record<string, unknown>,
        loaded.model.revisions,
        loaded.model.tools.map((tool) => ({ key: tool.key, schema: tool.input.schema.value as Json })),
      );
      if (problem === undefined) say(`SERVED ${index}`);
      else if (problem !== "not served")
        say(`FAIL ${index} serve ${JSON.stringify(`[${bases[which]}] ${problem}`)} ${JSON.stringify(text)}`);
    }
    // The validators against ajv on instances near each tool's schemas (outputs, and inputs
    // without defaults: the input validator fills them in, ajv here does not).
    if (loaded.ok && result.generated.files.has("validators.gen.ts")) {
      const validators = (await import(pathToFileURL(path.join(out, "validators.gen.ts")).href)) as Record<
        string,
        (value: unknown) => { path: string; message: string } | undefined
      >;
      for (const tool of loaded.model.tools) {
        for (const [suffix, model] of [
          ["Input", tool.input],
          ["Output", tool.output],
        ] as const) {
          if (model === undefined) continue;
          const schema = model.schema.value as Json;
          const written = JSON.stringify(schema);
          if (deliberate.test(written) || (suffix === "Input" && written.includes('"default"'))) continue;
          const validate = validators[`validate${tool.typeBase}${suffix}`];
          if (validate === undefined) {
            say(
              `FAIL ${index} validator ${JSON.stringify(`[${bases[which]}] validators.gen.ts has no validate${tool.typeBase}${suffix}`)} ${JSON.stringify(text)}`,
            );
            continue;
          }
          let reference: (value: unknown) => boolean;
          try {
            reference = ajvReference(model.dialect, schema);
          } catch (error) {
            compared.skipped++;
            if (argv.includes("--verbose"))
              process.stderr.write(
                `case ${index}: ajv cannot compile ${tool.key} ${suffix} (${String((error as Error).message)}): ${written.slice(0, 300)}\n`,
              );
            continue;
          }
          for (let n = 0; n < 20; n++) {
            let instance = randomInstance(rng, schema, schema, 0);
            // bent: one value inside replaced by another, or the whole by a scalar
            if (rng.chance(0.3)) {
              const inside = places(instance);
              if (inside.length === 0) instance = randomScalar(rng);
              else {
                const { parent, key } = rng.pick(inside);
                (parent as Record<string | number, Json>)[key] = rng.chance(0.5)
                  ? randomScalar(rng)
                  : rng.pick([[], {}, null]);
              }
            }
            const expected = reference(JSON.parse(JSON.stringify(instance)));
            let issue: { path: string; message: string } | undefined;
            try {
              issue = validate(JSON.parse(JSON.stringify(instance)));
            } catch (error) {
              say(
                `FAIL ${index} validator ${JSON.stringify(`[${bases[which]}] ${tool.key} ${suffix}: throws ${String(error)} on ${JSON.stringify(instance)}`)} ${JSON.stringify(text)}`,
              );
              break;
            }
            compared.values++;
            if (expected) compared.valid++;
            if ((issue === undefined) !== expected) {
              say(
                `FAIL ${index} validator ${JSON.stringify(`[${bases[which]}] ${tool.key} ${suffix}: ajv says ${expected ? "valid" : "invalid"}, the generated validator ${issue === undefined ? "valid" : `invalid (${issue.path} ${issue.message})`}, for ${JSON.stringify(instance)} against ${written.slice(0, 600)}`)} ${JSON.stringify(text)}`,
              );
              break;
            }
          }
        }
      }
    }
    if (COMPILE_EVERY > 0) {
      batch.push({ index, base: bases[which]!, files, manifest: text });
      if (batch.length >= COMPILE_EVERY) {
        compileBatch();
        for (const folder of folders)
          for (const entry of readdirSync(folder))
            if (entry.startsWith("out-")) rmSync(path.join(folder, entry), { recursive: true, force: true });
      }
    } else rmSync(out, { recursive: true, force: true });
  }
  compileBatch();
  say(`COMPARED ${compared.values} ${compared.valid} ${compared.skipped}`);
  rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------
// The driver: a watchdog around the worker, a summary at the end.

async function drive(): Promise<number> {
  const failures: string[] = [];
  const counts = { accepted: 0, served: 0, refused: 0, compared: 0, valid: 0, ajvRefused: 0 };
  mkdirSync(path.join(here, "failures"), { recursive: true });
  let next = FROM;
  const end = FROM + CASES;
  while (next < end) {
    const child = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), "--worker", String(next), String(end), ...argv],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let current = next;
    let buffer = "";
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        failures.push(`case ${current}: no answer within ${HANG_MS / 1000} s`);
        child.kill("SIGKILL");
      }, HANG_MS);
    };
    arm();
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      for (let n = buffer.indexOf("\n"); n >= 0; n = buffer.indexOf("\n")) {
        const line = buffer.slice(0, n);
        buffer = buffer.slice(n + 1);
        const [kind, index] = line.split(" ", 2);
        if (kind === "CASE") ((current = Number(index)), arm());
        else if (kind === "ACCEPTED") counts.accepted++;
        else if (kind === "SERVED") counts.served++;
        else if (kind === "COMPARED") {
          const [, values, valid, skipped] = line.split(" ");
          counts.compared += Number(values);
          counts.valid += Number(valid);
          counts.ajvRefused += Number(skipped);
        } else if (kind === "REFUSED") {
          counts.refused++;
          if (argv.includes("--verbose")) console.log(line);
        } else if (kind === "FAIL") {
          const [, , what, detail, manifest] =
            line.match(/^FAIL (\d+) (\w+) ("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*")$/) ?? [];
          failures.push(
            `case ${index}: ${what ?? line}: ${detail ? (JSON.parse(detail) as string).slice(0, 400) : ""}`,
          );
          if (manifest)
            writeFileSync(
              path.join(here, "failures", `manifest-${SEED}-${index}.yaml`),
              JSON.parse(manifest) as string,
            );
        }
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(timer);
    if (code === 0) break;
    if (!failures.some((f) => f.startsWith(`case ${current}:`)))
      failures.push(`case ${current}: the worker exited with ${code}`);
    next = current + 1;
  }
  console.log(
    `fuzz:manifests seed ${SEED}, cases ${FROM}..${end - 1}: ${counts.accepted} accepted (${counts.served} served; ${counts.compared} values checked against ajv, ${counts.valid} of them valid; ${counts.ajvRefused} schemas ajv could not compile), ${counts.refused} refused, ${failures.length} failures`,
  );
  for (const failure of failures.slice(0, 50)) console.log(`  ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

if (argv[0] === "--worker") await worker(Number(argv[1]), Number(argv[2]));
else process.exitCode = await drive();
