// What a handlers file needs, from the model: one typed stub per declaration, as a tree of
// sections (tools, resources, …, completions → prompts → member → argument). Pure text; the
// edit module decides where each missing entry goes.
import type { PromptModel, ServerModel } from "../model/types.js";
import { camelCase, identifierProblem } from "../model/names.js";
import { docLines, propertyKey, stringLiteral } from "../emit/escape.js";

/** An entry of a handler object: a method stub (lines, nesting by level) or a group of entries. */
export interface Entry {
  readonly key: string;
  /** What the entry stands for in messages ("tool get_forecast"). */
  readonly label: string;
  readonly lines?: readonly (readonly [level: number, text: string])[];
  readonly children?: readonly Entry[];
}

/** Handler bodies to use instead of a stub's TODO and error, by `section.member` (init's greet). */
export type Bodies = ReadonlyMap<string, readonly string[]>;

/** A parameter a handler receives: `args` (destructured into `fields` when given), `ctx`, … */
interface Param {
  readonly name: string;
  readonly fields?: readonly string[];
}

const args = (name: string, fields: readonly string[]): Param => ({ name, fields });
const ctx: Param = { name: "ctx" };

/** `{ city, days }` from the declared names `used` accepts; names that cannot be locals (`user-name`) become `"user-name": userName`. */
function destructured(names: readonly string[], used: (local: string) => boolean): string | undefined {
  const taken = new Set(["ctx"]);
  const parts: string[] = [];
  for (const name of names) {
    const local = camelCase(name);
    if (identifierProblem(local) !== undefined || taken.has(local) || !used(local)) continue;
    taken.add(local);
    parts.push(local === name ? name : `${propertyKey(name)}: ${local}`);
  }
  return parts.length === 0 ? undefined : `{ ${parts.join(", ")} }`;
}

/**
 * The parameter list of a handler with `body`: only what the body uses, so the stub passes
 * --noUnusedParameters (TypeScript lets a method take fewer parameters than its type gives).
 * An unused parameter before a used one is `_name`; a stub without a body takes none.
 */
function parameterList(params: readonly Param[], body: readonly string[] | undefined): string {
  const text = body?.join("\n") ?? "";
  const used = (local: string) => new RegExp(`(?<![\\w$.])${local.replace(/\$/g, "\\$")}(?![\\w$])`).test(text);
  const written = params.map((p) => (p.fields ? destructured(p.fields, used) : used(p.name) ? p.name : undefined));
  const last = written.findLastIndex((w) => w !== undefined);
  return written
    .slice(0, last + 1)
    .map((w, i) => w ?? `_${params[i]!.name}`)
    .join(", ");
}

/** `// Takes (args, ctx); args has "city", "days".`: what a stub without parameters can declare. */
function takes(params: readonly Param[]): string {
  const fields = params.find((p) => p.fields !== undefined && p.fields.length > 0);
  return `// Takes (${params.map((p) => p.name).join(", ")})${fields ? `; ${fields.name} has ${fields.fields!.map(stringLiteral).join(", ")}` : ""}.`;
}

/** The first line of a manifest string, safe inside a line comment. */
const firstLine = (text: string | undefined) => (text ? `: ${docLines(text)[0] ?? ""}` : "");

function stub(
  key: string,
  label: string,
  params: readonly Param[],
  todo: string,
  fail: string,
  body: readonly string[] | undefined,
): Entry {
  const inner = body ?? [`// TODO ${todo}`, takes(params), fail];
  return {
    key,
    label,
    lines: [
      [0, `${propertyKey(key)}(${parameterList(params, body)}) {`],
      ...inner.map((line) => [1, line] as const),
      [0, "},"],
    ],
  };
}

const notImplemented = (name: string) => stringLiteral(`${name} is not implemented yet`);
const throws = (name: string) => `throw new Error(${notImplemented(name)});`;

const section = (key: string, entries: Entry[]): Entry[] =>
  entries.length === 0 ? [] : [{ key, label: key, children: entries }];

/** The argument names a tool's input schema declares. */
const argNames = (schema: unknown): string[] => {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
};

/** Every handler the generated `<Base>Handlers` interface asks for, by section. */
export function declaredHandlers(model: ServerModel, bodies: Bodies = new Map()): Entry[] {
  return [
    ...section("tools", toolStubs(model, bodies)),
    ...section("resources", resourceStubs(model, bodies)),
    ...section("resourceTemplates", templateStubs(model, bodies)),
    ...section("prompts", promptStubs(model, bodies)),
    ...section("completions", completionStubs(model)),
  ];
}

/** A tool stub answers with an error result until it is written. */
function toolStubs(model: ServerModel, bodies: Bodies): Entry[] {
  return model.tools.map((t) => {
    const fail = `return { content: [{ type: "text", text: ${notImplemented(t.key)} }], isError: true };`;
    return stub(
      t.member,
      `tool ${t.key}`,
      [args("args", argNames(t.input.schema.value)), ctx],
      `tool ${t.key}${firstLine(t.description)}`,
      fail,
      bodies.get(`tools.${t.member}`),
    );
  });
}

function resourceStubs(model: ServerModel, bodies: Bodies): Entry[] {
  return model.resources.map((r) =>
    stub(
      r.member,
      `resource ${r.uri}`,
      [ctx],
      `resource ${r.uri}${firstLine(r.description)}`,
      throws(r.key),
      bodies.get(`resources.${r.member}`),
    ),
  );
}

function templateStubs(model: ServerModel, bodies: Bodies): Entry[] {
  return model.resourceTemplates.map((t) =>
    stub(
      t.member,
      `resource template ${t.uriTemplate}`,
      [args("variables", t.template.variables), ctx],
      `resource template ${t.uriTemplate}${firstLine(t.description)}`,
      throws(t.key),
      bodies.get(`resourceTemplates.${t.member}`),
    ),
  );
}

/** Only prompts without declarative `messages:` have a handler. */
function promptStubs(model: ServerModel, bodies: Bodies): Entry[] {
  return model.prompts
    .filter((p: PromptModel) => p.messages === undefined)
    .map((p) =>
      stub(
        p.member,
        `prompt ${p.key}`,
        [
          args(
            "args",
            p.arguments.map((a) => a.name),
          ),
          ctx,
        ],
        `prompt ${p.key}${firstLine(p.description)}`,
        throws(p.key),
        bodies.get(`prompts.${p.member}`),
      ),
    );
}

const completer = (owner: string, names: readonly string[]): Entry[] =>
  names.map((name) =>
    stub(
      name,
      `completer ${name} of ${owner}`,
      [{ name: "value" }, ctx],
      `complete ${name} of ${owner}`,
      "return [];",
      undefined,
    ),
  );

/** Completers of prompt arguments and template variables declared `complete:`, grouped by owner. */
function completionStubs(model: ServerModel): Entry[] {
  return [
    ...section(
      "prompts",
      model.prompts.flatMap((p) =>
        section(
          p.member,
          completer(
            `prompt ${p.key}`,
            p.arguments.filter((a) => a.complete).map((a) => a.name),
          ),
        ),
      ),
    ),
    ...section(
      "resourceTemplates",
      model.resourceTemplates.flatMap((t) =>
        section(t.member, completer(`resource template ${t.uriTemplate}`, t.completable)),
      ),
    ),
  ];
}
