// What a handlers file needs, from the model: one typed stub per declaration, as a tree of
// sections (tools, resources, …, completions → prompts → member → argument). Pure text; the
// edit module decides where each missing entry goes.
import type { PromptModel, ServerModel } from "../model/server.js";
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

/** `{ city, days }` from the declared names; names that cannot be locals (`user-name`) become `"user-name": userName`. */
function parameter(names: readonly string[]): string {
  const used = new Set(["ctx"]);
  const parts: string[] = [];
  for (const name of names) {
    const local = camelCase(name);
    if (identifierProblem(local) !== undefined || used.has(local)) continue;
    used.add(local);
    parts.push(local === name ? name : `${propertyKey(name)}: ${local}`);
  }
  return parts.length === 0 ? "_args" : `{ ${parts.join(", ")} }`;
}

/** The first line of a manifest string, safe inside a line comment. */
const firstLine = (text: string | undefined) => (text ? `: ${docLines(text)[0] ?? ""}` : "");

function stub(key: string, label: string, params: string, todo: string, fail: string, body: readonly string[] | undefined): Entry {
  const inner = body ?? [`// TODO ${todo}`, fail];
  return { key, label, lines: [[0, `${propertyKey(key)}(${params}) {`], ...inner.map((line) => [1, line] as const), [0, "},"]] };
}

const notImplemented = (name: string) => stringLiteral(`${name} is not implemented yet`);
const throws = (name: string) => `throw new Error(${notImplemented(name)});`;

/** Every handler the generated `<Base>Handlers` interface asks for, by section. */
export function declaredHandlers(model: ServerModel, bodies: Bodies = new Map()): Entry[] {
  const section = (key: string, entries: Entry[]): Entry[] => (entries.length === 0 ? [] : [{ key, label: key, children: entries }]);
  const argNames = (schema: unknown): string[] => {
    const properties = (schema as { properties?: unknown } | null)?.properties;
    return properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
  };
  const prompts = model.prompts.filter((p: PromptModel) => p.messages === undefined);
  const completer = (owner: string, names: readonly string[]): Entry[] =>
    names.map((name) => stub(name, `completer ${name} of ${owner}`, "value, ctx", `complete ${name} of ${owner}`, "return [];", undefined));
  return [
    ...section("tools", model.tools.map((t) => {
      const fail = `return { content: [{ type: "text", text: ${notImplemented(t.key)} }], isError: true };`;
      return stub(t.member, `tool ${t.key}`, `${parameter(argNames(t.input.schema.value))}, ctx`, `tool ${t.key}${firstLine(t.description)}`, fail, bodies.get(`tools.${t.member}`));
    })),
    ...section("resources", model.resources.map((r) => stub(r.member, `resource ${r.uri}`, "ctx", `resource ${r.uri}${firstLine(r.description)}`, throws(r.key), bodies.get(`resources.${r.member}`)))),
    ...section("resourceTemplates", model.resourceTemplates.map((t) =>
      stub(t.member, `resource template ${t.uriTemplate}`, `${parameter(t.template.variables)}, ctx`, `resource template ${t.uriTemplate}${firstLine(t.description)}`, throws(t.key), bodies.get(`resourceTemplates.${t.member}`)),
    )),
    ...section("prompts", prompts.map((p) =>
      stub(p.member, `prompt ${p.key}`, `${parameter(p.arguments.map((a) => a.name))}, ctx`, `prompt ${p.key}${firstLine(p.description)}`, throws(p.key), bodies.get(`prompts.${p.member}`)),
    )),
    ...section("completions", [
      ...section("prompts", model.prompts.flatMap((p) => section(p.member, completer(`prompt ${p.key}`, p.arguments.filter((a) => a.complete).map((a) => a.name))))),
      ...section("resourceTemplates", model.resourceTemplates.flatMap((t) => section(t.member, completer(`resource template ${t.uriTemplate}`, t.completable)))),
    ]),
  ];
}
