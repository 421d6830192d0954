// Validators of one generated file share a $ref helper when its code would be the same
// (compile-schema.ts, SharedHelpers): identical targets share one, different ones never do.
import { describe, it, expect } from "vitest";
import ts from "typescript";
import { codePointLength, deepEqual, pointerToken, type Validator } from "../../runtime/validation.js";
import {
  compileValidator,
  type CompiledValidator,
  type SharedHelpers,
  type ValidatorSpec,
} from "../../generator/emit/validators/compile-schema.js";

const runtimeImportPath = "../../../runtime/validation.js";

/** Compiles the specs in order into one file, sharing helpers as emitValidators does. */
function compileFile(specs: readonly Omit<ValidatorSpec, "sharedHelpers">[]): CompiledValidator[] {
  const sharedHelpers: SharedHelpers = new Map();
  return specs.map((spec) => compileValidator({ ...spec, sharedHelpers }));
}

/** Evaluates the concatenated code and returns the named validators (tests may evaluate code; the compiler never does). */
function load(parts: readonly CompiledValidator[], names: readonly string[]): Map<string, Validator> {
  const js = ts.transpileModule(parts.map((p) => p.code).join("\n"), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  const body = js.replace(/^export function /gm, "function ");
  const factory = new Function(
    "deepEqual",
    "codePointLength",
    "pointerToken",
    `"use strict";\n${body}\nreturn [${names.join(", ")}];`,
  ) as (...helpers: unknown[]) => Validator[];
  const validators = factory(deepEqual, codePointLength, pointerToken);
  return new Map(names.map((name, i) => [name, validators[i]!]));
}

function functionNames(code: string): string[] {
  return [...code.matchAll(/^(?:export )?function ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]!);
}

const money = {
  type: "object",
  properties: { amount: { type: "number", minimum: 0 }, currency: { type: "string", pattern: "^[A-Z]{3}$" } },
  required: ["amount", "currency"],
};

/** A tool schema with its own copy of the shared definitions (line refers to money). */
function toolSchema(moneyDef: unknown): Record<string, unknown> {
  return {
    type: "object",
    $defs: {
      money: moneyDef,
      line: {
        type: "object",
        properties: { sku: { type: "string" }, price: { $ref: "#/$defs/money" } },
        required: ["sku"],
      },
    },
    properties: { total: { $ref: "#/$defs/money" }, lines: { type: "array", items: { $ref: "#/$defs/line" } } },
    required: ["total"],
  };
}

const instances: unknown[] = [
  { total: { amount: 1, currency: "EUR" } },
  { total: { amount: 0, currency: "EUR" }, lines: [{ sku: "a", price: { amount: 2, currency: "USD" } }] },
  { total: { amount: -1, currency: "EUR" } },
  { total: { amount: 0.5, currency: "eur" } },
  { total: { amount: 1, currency: "EUR" }, lines: [{ sku: "a" }, { sku: 1 }] },
  { total: { amount: 1, currency: "EUR" }, lines: [{ sku: "a", price: { amount: "1", currency: "EUR" } }] },
  { total: { currency: "EUR" } },
  { total: null },
  {},
  [],
];

/** Each validator in `file` behaves exactly as the same spec compiled alone (no sharing). */
function expectSameAsAlone(specs: readonly Omit<ValidatorSpec, "sharedHelpers">[], samples: readonly unknown[]): void {
  const names = specs.map((s) => s.name);
  const shared = load(compileFile(specs), names);
  for (const spec of specs) {
    const alone = load([compileValidator(spec)], [spec.name]).get(spec.name)!;
    for (const sample of samples) {
      const a = structuredClone(sample);
      const b = structuredClone(sample);
      expect(shared.get(spec.name)!(a), `${spec.name} ${JSON.stringify(sample)}`).toEqual(alone(b));
      expect(a, "defaults filled the same").toEqual(b);
    }
  }
}

describe("compileValidator: helpers shared across the validators of one file", () => {
  const specs = [
    { name: "validateAInput", schema: toolSchema(money), dialect: "2020-12" as const, applyDefaults: true },
    {
      name: "validateBInput",
      schema: toolSchema(structuredClone(money)),
      dialect: "2020-12" as const,
      applyDefaults: true,
    },
  ];

  it("identical definitions share one helper, named after the first validator that needs it", () => {
    const [first, second] = compileFile(specs);
    expect(functionNames(first!.code)).toEqual(["validateAInput", "validateAInput_money", "validateAInput_line"]);
    expect(first!.callsSharedHelpers).toBe(false);
    expect(functionNames(second!.code)).toEqual(["validateBInput"]);
    expect(second!.code).toContain("validateAInput_money(");
    expect(second!.code).toContain("validateAInput_line(");
    expect(second!.callsSharedHelpers).toBe(true);
    // The first validator's code does not change by sharing.
    expect(first!.code).toBe(compileValidator(specs[0]!).code);
  });

  it("validators that share behave exactly as before", () => {
    expectSameAsAlone(specs, instances);
  });

  it("definitions that differ in one keyword get a helper each", () => {
    const other = toolSchema({ ...money, properties: { ...money.properties, amount: { type: "number", minimum: 1 } } });
    const differing = [specs[0]!, { ...specs[1]!, schema: other }];
    const [, second] = compileFile(differing);
    expect(functionNames(second!.code)).toEqual(["validateBInput", "validateBInput_money", "validateBInput_line"]);
    expect(second!.callsSharedHelpers).toBe(false);
    expectSameAsAlone(differing, instances);
    const validateB = load(compileFile(differing), ["validateAInput", "validateBInput"]).get("validateBInput")!;
    expect(validateB({ total: { amount: 0.5, currency: "EUR" } })).toEqual({
      path: "/total/amount",
      message: "must be >= 1",
    });
  });

  it("a definition that only refers to a different one is not shared", () => {
    // Same `line`, but the `money` it refers to differs: line's code calls another helper.
    const other = toolSchema({ ...money, required: ["amount"] });
    const [, second] = compileFile([specs[0]!, { ...specs[1]!, schema: other }]);
    expect(functionNames(second!.code)).toEqual(["validateBInput", "validateBInput_money", "validateBInput_line"]);
  });

  it("shares only in the same defaults mode, and across dialects only where no keyword reads differently", () => {
    const withDefault = toolSchema({
      ...money,
      properties: { ...money.properties, currency: { type: "string", default: "EUR" } },
    });
    const mixed = [
      { name: "validateAInput", schema: withDefault, dialect: "2020-12" as const, applyDefaults: true },
      {
        name: "validateAOutput",
        schema: structuredClone(withDefault),
        dialect: "2020-12" as const,
        applyDefaults: false,
      },
      {
        name: "validateBInput",
        schema: structuredClone(withDefault),
        dialect: "draft-07" as const,
        applyDefaults: true,
      },
    ];
    const [input, output, draft07] = compileFile(mixed);
    // Array items are checked without filling defaults: the output validator calls those variants only.
    expect(functionNames(input!.code)).toContain("validateAInput_money_withoutDefaults");
    expect(functionNames(output!.code)).toEqual(["validateAOutput"]);
    expect(output!.code).toContain("validateAInput_money_withoutDefaults(total)");
    expect(output!.code).not.toMatch(/validateAInput_money\(/);
    // money and line use no keyword the dialects read differently: the draft-07 validator calls the same helpers.
    expect(functionNames(draft07!.code)).toEqual(["validateBInput"]);
    expect(draft07!.callsSharedHelpers).toBe(true);
    expectSameAsAlone(mixed, [
      ...instances,
      { total: { amount: 1 } },
      { total: { amount: 1 }, lines: [{ sku: "x", price: { amount: 1 } }] },
    ]);

    // A $ref with a sibling keyword: draft-07 ignores the sibling, 2020-12 applies it, so nothing is shared.
    const withSibling = toolSchema({
      ...money,
      properties: { ...money.properties, amount: { $ref: "#/$defs/positive", maximum: 10 } },
    });
    (withSibling["$defs"] as Record<string, unknown>)["positive"] = { type: "number", minimum: 0 };
    const dialects = [
      { name: "validateCInput", schema: withSibling, dialect: "2020-12" as const, applyDefaults: false },
      {
        name: "validateDInput",
        schema: structuredClone(withSibling),
        dialect: "draft-07" as const,
        applyDefaults: false,
      },
    ];
    const [modern, legacy] = compileFile(dialects);
    expect(functionNames(modern!.code)).toContain("validateCInput_money");
    expect(functionNames(legacy!.code)).toContain("validateDInput_money");
    // positive itself reads alike in both: shared.
    expect(functionNames(legacy!.code)).not.toContain("validateDInput_positive");
    expectSameAsAlone(dialects, [
      { total: { amount: 20, currency: "EUR" } },
      { total: { amount: -1, currency: "EUR" } },
      ...instances,
    ]);
  });

  it("shares definitions that differ only in annotations (descriptions, titles, examples, format)", () => {
    const annotated = toolSchema({
      ...money,
      description: "An amount of money",
      properties: {
        ...money.properties,
        currency: { ...money.properties.currency, title: "Currency", examples: ["EUR"], format: "iso-4217" },
      },
    });
    const [, second] = compileFile([specs[0]!, { ...specs[1]!, schema: annotated }]);
    expect(functionNames(second!.code)).toEqual(["validateBInput"]);
  });

  it("shares recursive definitions and schemas that refer to their root", () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        },
      },
      $ref: "#/$defs/node",
    };
    const rooted = { type: "object", properties: { value: { type: "integer" }, next: { $ref: "#" } } };
    const recursive = [
      { name: "validateTreeA", schema: tree, dialect: "2020-12" as const, applyDefaults: false },
      { name: "validateTreeB", schema: structuredClone(tree), dialect: "2020-12" as const, applyDefaults: false },
      { name: "validateListA", schema: rooted, dialect: "2020-12" as const, applyDefaults: false },
      { name: "validateListB", schema: structuredClone(rooted), dialect: "2020-12" as const, applyDefaults: false },
    ];
    const parts = compileFile(recursive);
    expect(functionNames(parts[1]!.code)).toEqual(["validateTreeB"]);
    expect(functionNames(parts[3]!.code)).toEqual(["validateListB"]);
    expectSameAsAlone(recursive, [
      {
        name: "a",
        children: [
          { name: "b", children: [] },
          { name: "c", children: [{ name: 1 }] },
        ],
      },
      { name: "a", children: [{ children: "no" }] },
      { value: 1, next: { value: 2, next: { value: 2.5 } } },
      { value: 1, next: { value: 2 } },
      "x",
    ]);
  });

  it("never shares a target whose JSON text is not exact (-0)", () => {
    const withZero = (zero: number) =>
      toolSchema({ ...money, properties: { ...money.properties, amount: { const: zero } } });
    const zeros = [
      { name: "validateAInput", schema: withZero(-0), dialect: "2020-12" as const, applyDefaults: false },
      { name: "validateBInput", schema: withZero(-0), dialect: "2020-12" as const, applyDefaults: false },
      { name: "validateCInput", schema: withZero(0), dialect: "2020-12" as const, applyDefaults: false },
    ];
    expect(compileFile(zeros).map((p) => p.callsSharedHelpers)).toEqual([false, false, false]);
  });

  it("the shared output type-checks under strict flags", () => {
    const parts = compileFile([...specs, { ...specs[0]!, name: "validateAOutput", applyDefaults: false }]);
    expect(parts[2]!.callsSharedHelpers).toBe(true);
    const helpers = new Set(parts.flatMap((p) => [...p.helpers]));
    const source = [
      `import type { ValidationIssue } from "${runtimeImportPath}";`,
      ...(helpers.size > 0 ? [`import { ${[...helpers].sort().join(", ")} } from "${runtimeImportPath}";`] : []),
      "",
      ...parts.map((p) => p.code),
    ].join("\n");
    expect(typeCheck(source)).toEqual([]);
  });
});

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

/** Type-checks one in-memory file (placed in test/unit/__virtual__/) under the strict flags. */
function typeCheck(source: string): string[] {
  const fileName = new URL("./__virtual__/validators.gen.ts", import.meta.url).pathname;
  const host = ts.createCompilerHost(strictOptions);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, source, languageVersion, true)
      : getSourceFile.call(host, name, languageVersion, ...rest);
  host.fileExists = (name) => name === fileName || fileExists.call(host, name);
  host.readFile = (name) => (name === fileName ? source : readFile.call(host, name));
  const program = ts.createProgram([fileName], strictOptions, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
