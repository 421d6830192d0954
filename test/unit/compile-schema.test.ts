import { describe, it, expect } from "vitest";
import ts from "typescript";
import {
  codePointLength,
  deepEqual,
  pointerToken,
  type ValidationIssue,
  type Validator,
} from "../../runtime/validation.js";
import {
  compileValidator,
  type CompiledValidator,
  type ValidatorSpec,
} from "../../generator/emit/validators/compile-schema.js";
import { stripLiteralsAndComments } from "../../generator/emit/validators/code.js";
import { analyzeSchema, type SchemaDialect } from "../../generator/validate/schema-check.js";
import { corpus, type CorpusCase } from "./fixtures/compile-schema/corpus.js";
import { ajvReference } from "../support/ajv-reference.js";

// ---------------------------------------------------------------------------------------
// Harness

const runtimeImportPath = "../../../runtime/validation.js";

/** Compiles a spec (compileValidator throws on a schema the validate phase would reject). */
function compile(spec: ValidatorSpec): CompiledValidator {
  return compileValidator(spec);
}

/** Turns generated TypeScript into a callable validator (tests may evaluate code; the compiler never does). */
function load(compiled: CompiledValidator, name: string): Validator {
  const js = ts.transpileModule(compiled.code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  const body = js.replace(/^export function /m, "function ");
  const factory = new Function(
    "deepEqual",
    "codePointLength",
    "pointerToken",
    `"use strict";\n${body}\nreturn ${name};`,
  ) as (...helpers: unknown[]) => Validator;
  return factory(deepEqual, codePointLength, pointerToken);
}

function compileAndLoad(spec: ValidatorSpec): Validator {
  return load(compile(spec), spec.name);
}

function caseName(index: number): string {
  return `validateCase${index}`;
}

function specFor(testCase: CorpusCase, index: number): ValidatorSpec {
  return {
    name: caseName(index),
    schema: testCase.schema,
    dialect: testCase.dialect ?? "2020-12",
    applyDefaults: false,
    doc: testCase.name,
  };
}

/** Deep copy of a JSON instance that keeps "__proto__" keys as own properties. */
function copy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

const strictOptions: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  types: [],
  noEmit: true,
  skipLibCheck: true,
};

/** What a caller writes around the validators: the type import and the helpers they use. */
function moduleSource(parts: readonly CompiledValidator[]): string {
  const helpers = new Set<string>();
  for (const part of parts) for (const helper of part.helpers) helpers.add(helper);
  const imports = [`import type { ValidationIssue } from "${runtimeImportPath}";`];
  if (helpers.size > 0) imports.push(`import { ${[...helpers].sort().join(", ")} } from "${runtimeImportPath}";`);
  return `${imports.join("\n")}\n\n${parts.map((p) => p.code).join("\n")}`;
}

/** Type-checks in-memory files (placed in test/unit/__virtual__/) under the strict flags. */
function typeCheck(files: ReadonlyMap<string, string>): string[] {
  const directory = new URL("./__virtual__/", import.meta.url).pathname;
  const virtual = new Map([...files].map(([name, text]) => [directory + name, text]));
  const host = ts.createCompilerHost(strictOptions);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const text = virtual.get(fileName);
    return text !== undefined
      ? ts.createSourceFile(fileName, text, languageVersion, true)
      : getSourceFile.call(host, fileName, languageVersion, ...rest);
  };
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => virtual.get(fileName) ?? readFile.call(host, fileName);
  const program = ts.createProgram([...virtual.keys()], strictOptions, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName.slice(directory.length)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
        : "";
    return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
}

// ---------------------------------------------------------------------------------------
// 1. Differential test against ajv

describe("compileValidator: differential against ajv", () => {
  it("has a corpus of at least 60 schemas", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
  });

  corpus.forEach((testCase, index) => {
    it(`${testCase.dialect ?? "2020-12"}: ${testCase.name}`, () => {
      const spec = specFor(testCase, index);
      const validate = compileAndLoad(spec);
      const reference = ajvReference(spec.dialect, testCase.schema);
      const verdicts = testCase.instances.map((instance, i) => {
        const expected = reference(copy(instance));
        const issue = validate(copy(instance));
        expect(issue === undefined, `instance #${i} ${JSON.stringify(instance)}: ${JSON.stringify(issue)}`).toBe(
          expected,
        );
        if (issue !== undefined) {
          expect(typeof issue.path).toBe("string");
          expect(issue.message).toMatch(/^(must|property name|boolean schema)/);
        }
        return expected;
      });
      if (testCase.mixed !== false) {
        // Each case should exercise both outcomes, or it tests less than it seems.
        expect(verdicts).toContain(true);
        expect(verdicts).toContain(false);
      }
      for (const [i, path] of testCase.paths ?? []) {
        expect(validate(copy(testCase.instances[i]))?.path, `path of instance #${i}`).toBe(path);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------
// Behaviour where mcp-gen deliberately differs from ajv, and messages

describe("compileValidator: semantics beyond the ajv comparison", () => {
  it("treats a __proto__ entry in properties as a declared property (ajv skips it)", () => {
    const validate = compileAndLoad({
      name: "validateProto",
      schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}'),
      dialect: "2020-12",
      applyDefaults: false,
    });
    expect(validate(JSON.parse('{"__proto__":"x"}'))).toBeUndefined();
    expect(validate(JSON.parse('{"__proto__":1}'))).toEqual({ path: "/__proto__", message: "must be string" });
    expect(validate({})).toBeUndefined();
    expect(validate(JSON.parse('{"other":1}'))).toEqual({
      path: "",
      message: "must NOT have additional property 'other'",
    });
  });

  // Found by fuzz/manifests.ts: ajv 8 skips an empty property name in `required` and accepts {}.
  it('requires a property named "" when required lists it (ajv ignores the name)', () => {
    const schema = { type: "object", properties: { filename: { type: "string" } }, required: [""] };
    const validate = compileAndLoad({ name: "validateEmptyName", schema, dialect: "2020-12", applyDefaults: false });
    expect(validate({})).toEqual({ path: "", message: "must have required property ''" });
    expect(validate({ "": 0 })).toBeUndefined();
    expect(ajvReference("2020-12", schema)({}), "ajv's verdict, which this test documents as wrong").toBe(true);
  });

  it("checks multipleOf with tolerance for binary rounding", () => {
    const validate = compileAndLoad({
      name: "validateMoney",
      schema: { multipleOf: 0.01 },
      dialect: "2020-12",
      applyDefaults: false,
    });
    for (const ok of [19.99, 4.35, 0.07, 1.1, 0.1 + 0.2, 1e-2, 100, -3.3])
      expect(validate(ok), String(ok)).toBeUndefined();
    for (const bad of [0.001, 19.991, 4.355, 1e-13])
      expect(validate(bad)?.message, String(bad)).toBe("must be multiple of 0.01");
    const tenth = compileAndLoad({
      name: "validateTenth",
      schema: { multipleOf: 0.1 },
      dialect: "2020-12",
      applyDefaults: false,
    });
    expect(tenth(0.3)).toBeUndefined();
    expect(tenth(0.7)).toBeUndefined();
    expect(tenth(0.75)?.message).toBe("must be multiple of 0.1");
  });

  it("ignores a type next to $ref in draft-07 (ajv still applies it), also for uniqueItems", () => {
    const validate = compileAndLoad({
      name: "validateDraftRefType",
      schema: {
        items: { $ref: "#/definitions/o", type: "string" },
        uniqueItems: true,
        definitions: { o: { type: "object" } },
      },
      dialect: "draft-07",
      applyDefaults: false,
    });
    const objects = Array.from({ length: 20 }, (_, i) => ({ i }));
    expect(validate(objects)).toBeUndefined();
    expect(validate([...objects, { i: 3 }])).toEqual({
      path: "",
      message: "must NOT have duplicate items (items ## 20 and 3 are identical)",
    });
    expect(validate(["x"])).toEqual({ path: "/0", message: "must be object" });
  });

  it("supports dependentRequired in draft-07 too", () => {
    const validate = compileAndLoad({
      name: "validateDeps",
      schema: { dependentRequired: { a: ["b"] } },
      dialect: "draft-07",
      applyDefaults: false,
    });
    expect(validate({ a: 1 })).toEqual({ path: "", message: "must have property 'b' when property 'a' is present" });
    expect(validate({ a: 1, b: 2 })).toBeUndefined();
  });

  it("reports ajv-style messages at the instance location", () => {
    const validate = compileAndLoad({
      name: "validateMessages",
      schema: {
        type: "object",
        required: ["city"],
        properties: {
          city: { type: "string", minLength: 1, maxLength: 3, pattern: "^a" },
          days: { type: "integer", minimum: 1, exclusiveMaximum: 10, multipleOf: 2 },
          unit: { enum: ["c", "f"] },
          fixed: { const: 1 },
          list: { type: "array", maxItems: 2, uniqueItems: true },
          one: { oneOf: [{ type: "number" }, { type: "integer" }] },
          any: { anyOf: [{ type: "string" }, { type: "number" }] },
          no: { not: { type: "null" } },
          names: { type: "object", propertyNames: { maxLength: 1 } },
          cond: { if: { type: "string" }, then: { minLength: 2 } },
        },
        additionalProperties: false,
      },
      dialect: "2020-12",
      applyDefaults: false,
    });
    const cases: Array<[unknown, ValidationIssue]> = [
      [[], { path: "", message: "must be object" }],
      [{}, { path: "", message: "must have required property 'city'" }],
      [{ city: 1 }, { path: "/city", message: "must be string" }],
      [{ city: "" }, { path: "/city", message: "must NOT have fewer than 1 characters" }],
      [{ city: "abcd" }, { path: "/city", message: "must NOT have more than 3 characters" }],
      [{ city: "b" }, { path: "/city", message: 'must match pattern "^a"' }],
      [
        { city: "a", days: 1.5 },
        { path: "/days", message: "must be integer" },
      ],
      [
        { city: "a", days: 0 },
        { path: "/days", message: "must be >= 1" },
      ],
      [
        { city: "a", days: 10 },
        { path: "/days", message: "must be < 10" },
      ],
      [
        { city: "a", days: 3 },
        { path: "/days", message: "must be multiple of 2" },
      ],
      [
        { city: "a", unit: "k" },
        { path: "/unit", message: "must be equal to one of the allowed values" },
      ],
      [
        { city: "a", fixed: 2 },
        { path: "/fixed", message: "must be equal to constant" },
      ],
      [
        { city: "a", list: [1, 2, 3] },
        { path: "/list", message: "must NOT have more than 2 items" },
      ],
      [
        { city: "a", list: [1, 1] },
        { path: "/list", message: "must NOT have duplicate items (items ## 1 and 0 are identical)" },
      ],
      [
        { city: "a", one: 1 },
        { path: "/one", message: "must match exactly one schema in oneOf" },
      ],
      [
        { city: "a", any: null },
        { path: "/any", message: "must match a schema in anyOf" },
      ],
      [
        { city: "a", no: null },
        { path: "/no", message: "must NOT be valid" },
      ],
      [
        { city: "a", names: { ab: 1 } },
        { path: "/names", message: "property name 'ab' must be valid" },
      ],
      [
        { city: "a", cond: "x" },
        { path: "/cond", message: "must NOT have fewer than 2 characters" },
      ],
      [
        { city: "a", extra: 1 },
        { path: "", message: "must NOT have additional property 'extra'" },
      ],
    ];
    for (const [instance, issue] of cases) expect(validate(instance), JSON.stringify(instance)).toEqual(issue);
    expect(
      validate({
        city: "a",
        days: 2,
        unit: "c",
        fixed: 1,
        list: [1],
        one: 1.5,
        any: 1,
        no: 0,
        names: { a: 1 },
        cond: "ab",
      }),
    ).toBeUndefined();
  });

  it("escapes pointer tokens in issue paths (static and dynamic keys)", () => {
    const validate = compileAndLoad({
      name: "validatePaths",
      schema: {
        properties: { "a/b": { properties: { "~": { type: "string" } } } },
        additionalProperties: { type: "object", additionalProperties: { type: "string" } },
      },
      dialect: "2020-12",
      applyDefaults: false,
    });
    expect(validate({ "a/b": { "~": 1 } })?.path).toBe("/a~1b/~0");
    expect(validate({ "x~y": { "p/q": 1 } })?.path).toBe("/x~0y/p~1q");
  });

  it("does not allocate issue paths on the success path (paths are built at the failing return only)", () => {
    const { code } = compile({
      name: "validateLazyPath",
      schema: { type: "array", items: { type: "object", additionalProperties: { type: "string" } } },
      dialect: "2020-12",
      applyDefaults: false,
    });
    for (const line of code.split("\n")) {
      if (line.includes("pointerToken(") || /"\/" \+ index/.test(line)) expect(line).toMatch(/return \{ path:/);
    }
  });
});

// ---------------------------------------------------------------------------------------
// 2. Defaults

const defaultsSchema = {
  type: "object",
  required: ["unit", "days"],
  properties: {
    unit: { enum: ["c", "f"], default: "c" },
    days: { type: "integer", default: 3 },
    tags: { type: "array", default: ["a"] },
    options: { type: "object", default: {}, properties: { depth: { type: "integer", default: 1 } } },
    place: { $ref: "#/$defs/place" },
    choice: { anyOf: [{ type: "object", properties: { x: { default: 1 } }, required: ["never"] }, { type: "object" }] },
    either: { oneOf: [{ $ref: "#/$defs/place" }, { type: "string" }] },
    negated: { not: { type: "object", properties: { x: { default: 1 } }, required: ["never"] } },
    cond: {
      if: { type: "object", properties: { x: { default: 1 } } },
      then: { properties: { y: { default: 2 } } },
      else: { properties: { z: { default: 3 } } },
    },
    both: { allOf: [{ properties: { a: { default: "from allOf" } } }, { required: ["a"] }] },
    items: { type: "array", items: { type: "object", properties: { q: { default: 0 } } } },
  },
  $defs: { place: { type: "object", properties: { country: { type: "string", default: "NL" } } } },
};

/** Defaults (and a const) whose JSON has "__proto__" keys. */
const protoDefaultsSchema: unknown = JSON.parse(
  '{"type":"object","properties":{"__proto__":{"default":{"polluted":true}},"nested":{"default":{"__proto__":{"polluted":true}}},"fixed":{"const":{"__proto__":1}}}}',
);

describe("compileValidator: applyDefaults", () => {
  const schema = defaultsSchema;
  const validate = compileAndLoad({ name: "validateDefaults", schema, dialect: "2020-12", applyDefaults: true });

  it("fills missing properties before required is checked", () => {
    const value: Record<string, unknown> = {};
    expect(validate(value)).toBeUndefined();
    expect(value).toEqual({ unit: "c", days: 3, tags: ["a"], options: { depth: 1 } });
  });

  it("keeps present values and still validates defaults' siblings", () => {
    const value: Record<string, unknown> = { unit: "f", days: 7, options: { depth: 4 } };
    expect(validate(value)).toBeUndefined();
    expect(value).toEqual({ unit: "f", days: 7, tags: ["a"], options: { depth: 4 } });
    expect(validate({ unit: "k" })).toEqual({ path: "/unit", message: "must be equal to one of the allowed values" });
  });

  it("follows $ref and allOf, but not anyOf, oneOf, not, if/then/else or items", () => {
    const value: Record<string, unknown> = {
      place: {},
      choice: {},
      either: {},
      negated: 5,
      cond: {},
      both: {},
      items: [{}],
    };
    expect(validate(value)).toBeUndefined();
    expect(value["place"]).toEqual({ country: "NL" });
    expect(value["choice"]).toEqual({});
    expect(value["either"]).toEqual({});
    expect(value["cond"]).toEqual({});
    expect(value["both"]).toEqual({ a: "from allOf" });
    expect(value["items"]).toEqual([{}]);
  });

  it("gives every call a fresh copy of object and array defaults", () => {
    const first: Record<string, unknown> = {};
    const second: Record<string, unknown> = {};
    validate(first);
    (first["tags"] as string[]).push("mutated");
    (first["options"] as Record<string, unknown>)["depth"] = 99;
    validate(second);
    expect(second["tags"]).toEqual(["a"]);
    expect(second["options"]).toEqual({ depth: 1 });
    expect(second["tags"]).not.toBe(first["tags"]);
  });

  it("fills nothing when applyDefaults is false", () => {
    const plain = compileAndLoad({ name: "validatePlain", schema, dialect: "2020-12", applyDefaults: false });
    const value = {};
    expect(plain(value)).toEqual({ path: "", message: "must have required property 'unit'" });
    expect(value).toEqual({});
  });

  it("ignores a default next to $ref in draft-07 and fills ref targets' defaults", () => {
    const draft = compileAndLoad({
      name: "validateDraftDefaults",
      schema: {
        properties: { a: { $ref: "#/definitions/a", default: 1 }, b: { $ref: "#/definitions/b" } },
        definitions: { a: { type: "integer" }, b: { properties: { c: { default: "c" } } } },
      },
      dialect: "draft-07",
      applyDefaults: true,
    });
    const value: Record<string, unknown> = { b: {} };
    expect(draft(value)).toBeUndefined();
    expect(value).toEqual({ b: { c: "c" } });
  });

  it("creates __proto__ defaults as own properties without touching prototypes", () => {
    const withDefaults = compileAndLoad({
      name: "validateProtoDefault",
      schema: protoDefaultsSchema,
      dialect: "2020-12",
      applyDefaults: true,
    });
    const value: Record<string, unknown> = {};
    expect(withDefaults(value)).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, "__proto__")).toBe(true);
    const nested = value["nested"] as object;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(nested, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(withDefaults({ ...value, fixed: JSON.parse('{"__proto__":1}') })).toBeUndefined();
    expect(withDefaults({ ...value, fixed: {} })).toEqual({ path: "/fixed", message: "must be equal to constant" });
  });

  it("uses a separate no-defaults variant when a ref target is also used in a composite context", () => {
    const { code } = compile({ name: "validateVariants", schema, dialect: "2020-12", applyDefaults: true });
    expect(code).toContain("function validateVariants_place(");
    expect(code).toContain("function validateVariants_place_withoutDefaults(");
  });
});

// ---------------------------------------------------------------------------------------
// 3. Problems

describe("compileValidator: schema problems", () => {
  const cases: Array<[name: string, dialect: SchemaDialect, schema: unknown, pointer: string, message: RegExp]> = [
    ["$dynamicRef", "2020-12", { $dynamicRef: "#meta" }, "/$dynamicRef", /\$dynamicRef is not supported.*\$ref/],
    [
      "$dynamicAnchor",
      "2020-12",
      { $defs: { a: { $dynamicAnchor: "meta" } } },
      "/$defs/a/$dynamicAnchor",
      /\$dynamicAnchor is not supported/,
    ],
    [
      "$recursiveRef",
      "2020-12",
      { properties: { a: { $recursiveRef: "#" } } },
      "/properties/a/$recursiveRef",
      /\$recursiveRef/,
    ],
    ["$recursiveAnchor", "draft-07", { $recursiveAnchor: true }, "/$recursiveAnchor", /\$recursiveAnchor/],
    [
      "unevaluatedProperties",
      "2020-12",
      { unevaluatedProperties: false },
      "/unevaluatedProperties",
      /not supported.*additionalProperties/,
    ],
    [
      "unevaluatedItems",
      "2020-12",
      { items: { unevaluatedItems: false } },
      "/items/unevaluatedItems",
      /not supported.*items/,
    ],
    ["anchor ref", "2020-12", { $ref: "#node", $defs: { n: { $anchor: "node" } } }, "/$ref", /anchor.*JSON pointer/],
    ["nested $id", "2020-12", { properties: { a: { $id: "a.json" } } }, "/properties/a/$id", /\$id/],
    ["remote ref", "2020-12", { $ref: "https://example.com/s.json" }, "/$ref", /not local/],
    [
      "other file ref",
      "draft-07",
      { properties: { a: { $ref: "other.json#/definitions/x" } } },
      "/properties/a/$ref",
      /not local.*\$defs/,
    ],
    ["dangling ref", "2020-12", { items: { $ref: "#/$defs/missing" } }, "/items/$ref", /does not resolve/],
    [
      "ref to non-schema",
      "2020-12",
      { required: ["a"], not: { $ref: "#/required/0" } },
      "/not/$ref",
      /not to a schema/,
    ],
    ["bad percent-encoding", "2020-12", { $ref: "#/%E0%A4%A" }, "/$ref", /percent-encoding/],
    ["minimum as string", "2020-12", { minimum: "3" }, "/minimum", /minimum must be a number, not a string/],
    ["required as string", "2020-12", { required: "a" }, "/required", /required must be an array/],
    ["required entry", "2020-12", { required: ["a", 1] }, "/required/1", /property name/],
    ["pattern as number", "2020-12", { pattern: 5 }, "/pattern", /pattern must be a string/],
    [
      "invalid pattern",
      "2020-12",
      { properties: { "a/b": { pattern: "(" } } },
      "/properties/a~1b/pattern",
      /not a valid ECMAScript regular expression/,
    ],
    ["invalid u-mode escape", "2020-12", { pattern: "\\-" }, "/pattern", /u flag/],
    [
      "invalid patternProperties key",
      "2020-12",
      { patternProperties: { "[": {} } },
      "/patternProperties/[",
      /regular expression/,
    ],
    ["unknown type", "2020-12", { type: ["string", "int"] }, "/type/1", /"int" is not a JSON Schema type/],
    ["empty type array", "2020-12", { type: [] }, "/type", /type must be/],
    ["draft-04 exclusiveMinimum", "draft-07", { minimum: 1, exclusiveMinimum: true }, "/exclusiveMinimum", /draft-04/],
    ["negative maxLength", "2020-12", { maxLength: -1 }, "/maxLength", /non-negative integer/],
    ["fractional minItems", "2020-12", { minItems: 1.5 }, "/minItems", /non-negative integer/],
    ["zero multipleOf", "2020-12", { multipleOf: 0 }, "/multipleOf", /greater than 0/],
    ["uniqueItems as string", "2020-12", { uniqueItems: "yes" }, "/uniqueItems", /boolean/],
    ["enum not array", "2020-12", { enum: "a" }, "/enum", /enum must be an array/],
    ["empty allOf", "2020-12", { allOf: [] }, "/allOf", /non-empty array/],
    ["schema is a number", "2020-12", { properties: { a: 5 } }, "/properties/a", /object or a boolean/],
    ["properties not an object", "2020-12", { properties: [] }, "/properties", /properties must be an object/],
    ["items array in 2020-12", "2020-12", { items: [{}] }, "/items", /prefixItems/],
    [
      "additionalItems in 2020-12",
      "2020-12",
      { additionalItems: false },
      "/additionalItems",
      /not part of JSON Schema 2020-12/,
    ],
    ["prefixItems in draft-07", "draft-07", { prefixItems: [{}] }, "/prefixItems", /draft-07 give items an array/],
    ["dependentSchemas in draft-07", "draft-07", { dependentSchemas: { a: {} } }, "/dependentSchemas", /dependencies/],
    [
      "dependentRequired values",
      "2020-12",
      { dependentRequired: { a: "b" } },
      "/dependentRequired/a",
      /array of property names/,
    ],
    [
      "ref cycle without progress",
      "2020-12",
      { $ref: "#/$defs/a", $defs: { a: { anyOf: [{ $ref: "#/$defs/b" }] }, b: { allOf: [{ $ref: "#/$defs/a" }] } } },
      "/$defs/b/allOf/0/$ref",
      /recurse forever/,
    ],
    [
      "self ref",
      "2020-12",
      { $defs: { a: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } },
      "/$defs/a/$ref",
      /cycle/,
    ],
  ];

  for (const [name, dialect, schema, pointer, message] of cases) {
    it(`${name} → ${pointer}`, () => {
      // The validate phase reports these through schema-check.ts; emit refuses such a schema outright.
      const result = analyzeSchema(schema, dialect);
      const problem = result.problems.find((p) => p.pointer === pointer);
      expect(problem, JSON.stringify(result.problems)).toBeDefined();
      expect(problem!.message).toMatch(message);
      expect(() => compileValidator({ name: "validateProblem", schema, dialect, applyDefaults: false })).toThrow(
        /not checked before emit/,
      );
    });
  }

  it("accepts annotations, unknown keywords, format, a root $id and ignored draft-07 $ref siblings", () => {
    const ok: Array<[SchemaDialect, unknown]> = [
      [
        "2020-12",
        {
          $id: "https://example.com/s.json",
          $schema: "https://json-schema.org/draft/2020-12/schema",
          format: "uri",
          "x-kind": 1,
          title: 5,
          examples: "x",
        },
      ],
      ["draft-07", { $ref: "#/definitions/a", minimum: "ignored", definitions: { a: {} } }],
      [
        "2020-12",
        {
          $id: "https://example.com/s.json",
          properties: { a: { $ref: "https://example.com/s.json#/$defs/x" } },
          $defs: { x: { type: "string" } },
        },
      ],
      [
        "2020-12",
        { $defs: { tree: { properties: { kids: { items: { $ref: "#/$defs/tree" } } } } }, $ref: "#/$defs/tree" },
      ],
    ];
    for (const [dialect, schema] of ok) {
      expect(analyzeSchema(schema, dialect).problems).toEqual([]);
      expect(compileValidator({ name: "validateOk", schema, dialect, applyDefaults: false }).code).toContain(
        "export function validateOk(",
      );
    }
  });

  it("resolves refs through the root $id", () => {
    const validate = compileAndLoad({
      name: "validateRootId",
      schema: {
        $id: "https://example.com/s.json",
        properties: { a: { $ref: "https://example.com/s.json#/$defs/x" } },
        $defs: { x: { type: "string" } },
      },
      dialect: "2020-12",
      applyDefaults: false,
    });
    expect(validate({ a: "x" })).toBeUndefined();
    expect(validate({ a: 1 })).toEqual({ path: "/a", message: "must be string" });
  });
});

// ---------------------------------------------------------------------------------------
// 4–6. Strict compilation, determinism, escaping

const hostileSpec: ValidatorSpec = {
  name: "validateHostile",
  dialect: "2020-12",
  applyDefaults: true,
  doc: 'Ends a comment */ then `${code}` and "quotes" and \u2028 line separator',
  schema: JSON.parse(
    JSON.stringify({
      type: "object",
      description: "*/ `${x}` \u2028",
      properties: {
        "*/": { type: "string", pattern: "^\\*/`\\$\\{'\"", description: "*/" },
        "`${process.exit()}`": { enum: ["*/", "`", "${x}", "\"'", "\u2028", "\\u2028"], default: "${x}" },
        "'\"": { const: { "*/": "`${x}`" } },
        "\u2028\u2029": { type: "integer" },
        "/* x */": { type: "boolean" },
        "// y": { type: "null" },
      },
      patternProperties: { "^//": { type: "number" }, "\\*/$": { type: "string" } },
      required: ["*/"],
      additionalProperties: false,
    }),
  ),
};

describe("compileValidator: generated code", () => {
  it("type-checks under strict flags, concatenated into one validators file", () => {
    const parts = [
      ...corpus.map((c, i) => compile(specFor(c, i))),
      compile(hostileSpec),
      compile({ name: "validateDefaultsStrict", schema: defaultsSchema, dialect: "2020-12", applyDefaults: true }),
      compile({
        name: "validateProtoDefaultsStrict",
        schema: protoDefaultsSchema,
        dialect: "2020-12",
        applyDefaults: true,
      }),
    ];
    expect(typeCheck(new Map([["validators.gen.ts", moduleSource(parts)]]))).toEqual([]);
  });

  it("harness: the type check does report errors", () => {
    const diagnostics = typeCheck(
      new Map([
        [
          "bad.ts",
          `import { deepEqual } from "${runtimeImportPath}";\nexport function f(value: unknown): number { return value.length; }\n`,
        ],
      ]),
    );
    expect(diagnostics.some((d) => d.includes("'deepEqual' is declared but its value is never read"))).toBe(true);
    expect(diagnostics.some((d) => d.includes("'value' is of type 'unknown'"))).toBe(true);
  });

  it("reports exactly the runtime helpers each validator uses (one file per validator, unused imports fail)", () => {
    const files = new Map<string, string>();
    corpus.forEach((c, i) => files.set(`case${i}.ts`, moduleSource([compile(specFor(c, i))])));
    files.set("defaults.ts", moduleSource([compile({ ...specFor(corpus[0]!, 0), name: "validateDefaultsCheck" })]));
    expect(typeCheck(files)).toEqual([]);
  });

  it("is deterministic", () => {
    corpus.forEach((c, i) => {
      const spec = specFor(c, i);
      expect(compileValidator(spec).code).toBe(compileValidator(structuredClone(spec)).code);
    });
    expect(compileValidator(hostileSpec).code).toBe(compileValidator(hostileSpec).code);
  });

  it("prefixes every module-level name with the spec name", () => {
    corpus.forEach((c, i) => {
      const { code } = compileValidator(specFor(c, i));
      for (const match of code.matchAll(/^(?:export )?(?:const|function) ([A-Za-z0-9_$]+)/gm)) {
        expect(match[1] === caseName(i) || match[1]!.startsWith(`${caseName(i)}_`), match[1]).toBe(true);
      }
    });
  });

  it("never evaluates code at run time", () => {
    corpus.forEach((c, i) => {
      const { code } = compileValidator(specFor(c, i));
      expect(stripLiteralsAndComments(code)).not.toMatch(/new Function|\beval\(|\bany\b/);
    });
  });

  it("escapes hostile strings and still validates correctly", () => {
    const compiled = compile(hostileSpec);
    expect(compiled.code).toContain("*\\/ then");
    expect(compiled.code).not.toContain("\u2028");
    expect(compiled.code).not.toContain("\u2029");
    const validate = load(compiled, hostileSpec.name);
    const reference = ajvReference("2020-12", hostileSpec.schema);
    const instances: unknown[] = [
      { "*/": "*/`${'\"" },
      {
        "*/": "*/`${'\"",
        "`${process.exit()}`": "\u2028",
        "'\"": { "*/": "`${x}`" },
        "\u2028\u2029": 1,
        "/* x */": true,
        "// y": null,
      },
      { "*/": "nope" },
      { "*/": "*/`${'\"", "`${process.exit()}`": "\u2029" },
      { "*/": "*/`${'\"", "'\"": { "*/": "`${y}`" } },
      { "*/": "*/`${'\"", "//z": 1, "a*/": "s" },
      { "*/": "*/`${'\"", "//z": "1" },
      { "*/": "*/`${'\"", x: 1 },
      {},
    ];
    for (const instance of instances) {
      const mine = copy(instance);
      expect(validate(mine) === undefined, JSON.stringify(instance)).toBe(reference(copy(instance)));
    }
    const withDefault: Record<string, unknown> = { "*/": "*/`${'\"" };
    expect(validate(withDefault)).toBeUndefined();
    expect(withDefault["`${process.exit()}`"]).toBe("${x}");
    expect(validate({ "*/": "*/`${'\"", "\u2028\u2029": 1.5 })).toEqual({
      path: "/\u2028\u2029",
      message: "must be integer",
    });
  });
});
