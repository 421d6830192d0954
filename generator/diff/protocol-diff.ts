// What a spec bump changes in the protocol itself, derived from the two schema.json files
// alone: types ($defs) added, removed and changed field by field, and methods added, removed
// or moved between roles (the same unions the generator reads, via model/protocol.ts).
import type { ProtocolSchema, SchemaObject } from "../load/protocol.js";
import type { JsonValue } from "../load/source.js";
import { schemaKeywords, schemaMapKeywords, schemaObjects } from "../load/schema-refs.js";
import { buildProtocolModel, refName } from "../model/protocol.js";

/** One difference inside a type; `path` is "" for the type itself, `params.name` for a field. */
export interface SchemaChange {
  readonly path: string;
  readonly change: "added" | "removed" | "type" | "required" | "optional" | "values" | "members" | "keywords";
  /** Compact types: `from` of a removed field or a type change, `to` of an added field or a type change. */
  readonly from?: string;
  readonly to?: string;
  /** Enum/const values or union members that appeared and disappeared. */
  readonly added?: readonly string[];
  readonly removed?: readonly string[];
  /** Other keywords whose values differ (format, additionalProperties, …). */
  readonly keywords?: readonly string[];
}

export interface MethodChange {
  readonly method: string;
  /** Where the method stands in each revision: "client request", "server notification", …; empty when absent. */
  readonly from: readonly string[];
  readonly to: readonly string[];
}

export interface ProtocolDiff {
  readonly from: string;
  readonly to: string;
  readonly methods: {
    readonly added: readonly MethodChange[];
    readonly removed: readonly MethodChange[];
    readonly moved: readonly MethodChange[];
  };
  readonly types: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly { readonly name: string; readonly changes: readonly SchemaChange[] }[];
    /** Types whose only differences are descriptions (shown with --descriptions). */
    readonly descriptionOnly: readonly string[];
  };
}

const isObject = (value: unknown): value is SchemaObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** JSON with object keys sorted at every level: a canonical form for comparing, and stable output. */
export function stableJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) =>
      isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
    indent,
  );
}

const same = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

/**
 * A copy of `schema` without one keyword wherever a schema stands, or without one property
 * wherever `properties` lists it (a property *named* like the keyword stays, and vice versa).
 */
function without(schema: JsonValue, drop: { readonly keyword?: string; readonly property?: string }): JsonValue {
  if (!isObject(schema)) return schema;
  const copy: Record<string, JsonValue> = {};
  for (const [keyword, value] of Object.entries(schema as Record<string, JsonValue>)) {
    if (keyword === drop.keyword) continue;
    if (schemaKeywords.has(keyword))
      copy[keyword] = Array.isArray(value) ? value.map((child) => without(child, drop)) : without(value, drop);
    else if (schemaMapKeywords.has(keyword) && isObject(value)) {
      const entries = Object.entries(value as Record<string, JsonValue>).filter(
        ([name]) => keyword !== "properties" || name !== drop.property,
      );
      copy[keyword] = Object.fromEntries(entries.map(([name, child]) => [name, without(child, drop)]));
    } else copy[keyword] = value;
  }
  return copy;
}

const withoutDescriptions = (schema: JsonValue) => without(schema, { keyword: "description" });

/**
 * Whether a change lies inside a `_meta` field. `_meta` is the protocol's open slot for
 * metadata: a revision that retypes it (a named MetaObject for an inline record) changes no
 * field a handler or client reads, and the diff says so apart from real changes.
 */
export const inMeta = (change: SchemaChange): boolean => /(^|\.)_meta(\.|\[|$)/.test(change.path);

/** A short readable type: `string | number`, `"a" | "b"`, `Foo[]`, a $ref's name, `{ a: string; b?: Foo }`. */
export function compactType(schema: unknown): string {
  if (!isObject(schema)) return schema === false ? "never" : "unknown";
  const union = (parts: unknown[], joiner = " | ") => parts.map((p) => compactType(p)).join(joiner);
  if (typeof schema.$ref === "string") return refName(schema.$ref)!;
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return union(branches);
  if (Array.isArray(schema.allOf)) return union(schema.allOf, " & ");
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === "string"
      ? [schema.type]
      : [];
  const shown = types.map((type) => {
    if (type === "array") {
      const item = compactType(schema.items);
      return item.includes(" ") && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
    }
    if (type !== "object") return type;
    const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    if (properties.length > 0)
      return `{ ${properties.map(([name, p]) => `${name}${required.has(name) ? "" : "?"}: ${compactType(p)}`).join("; ")} }`;
    return isObject(schema.additionalProperties)
      ? `Record<string, ${compactType(schema.additionalProperties)}>`
      : "object";
  });
  return shown.length > 0 ? shown.join(" | ") : "unknown";
}

/** The values a schema enumerates (enum or const) as JSON text, or the members of its union; undefined when none. */
const valuesOf = (s: SchemaObject) =>
  ("const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined)?.map((v) => JSON.stringify(v));
const membersOf = (s: SchemaObject) => ((s.anyOf ?? s.oneOf) as unknown[] | undefined)?.map((b) => compactType(b));
const difference = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));

/** The differences between two (description-free) schemas at `path`, field by field where both are objects. */
function compare(a: JsonValue, b: JsonValue, path: string, out: SchemaChange[]): void {
  if (same(a, b)) return;
  if (!isObject(a) || !isObject(b)) {
    out.push({ path, change: "type", from: compactType(a), to: compactType(b) });
    return;
  }
  // Keywords not compared otherwise (format, additionalProperties, …) are named when they differ.
  const keywords = (except: readonly string[]) => {
    const names = [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .filter((k) => !except.includes(k) && !same(a[k], b[k]))
      .sort();
    if (names.length > 0) out.push({ path, change: "keywords", keywords: names });
  };
  const at = (name: string) => (path === "" ? name : `${path}.${name}`);
  if (isObject(a.properties) && isObject(b.properties)) {
    type Properties = Record<string, JsonValue>;
    const [pa, pb] = [a.properties, b.properties] as [Properties, Properties];
    const required = (s: SchemaObject) => new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const [ra, rb] = [required(a), required(b)];
    const optional = (r: Set<string>, name: string) => (r.has(name) ? "" : " (optional)");
    for (const name of Object.keys(pa).filter((n) => !(n in pb)))
      out.push({ path: at(name), change: "removed", from: `${compactType(pa[name])}${optional(ra, name)}` });
    for (const [name, schema] of Object.entries(pb)) {
      if (!(name in pa))
        out.push({ path: at(name), change: "added", to: `${compactType(schema)}${optional(rb, name)}` });
      else {
        compare(pa[name]!, schema, at(name), out);
        if (ra.has(name) !== rb.has(name)) out.push({ path: at(name), change: rb.has(name) ? "required" : "optional" });
      }
    }
    keywords(["properties", "required"]);
    return;
  }
  if (
    a.type === "array" &&
    b.type === "array" &&
    isObject(a.items) &&
    isObject(b.items) &&
    (isObject(a.items.properties) || a.items.anyOf)
  ) {
    compare(a.items as JsonValue, b.items as JsonValue, `${path}[]`, out);
    keywords(["items"]);
    return;
  }
  const [va, vb] = [valuesOf(a), valuesOf(b)];
  const [ma, mb] = [membersOf(a), membersOf(b)];
  const listed =
    va && vb
      ? { change: "values" as const, a: va, b: vb }
      : ma && mb
        ? { change: "members" as const, a: ma, b: mb }
        : undefined;
  if (listed) {
    const [added, removed] = [difference(listed.b, listed.a), difference(listed.a, listed.b)];
    if (added.length + removed.length > 0) out.push({ path, change: listed.change, added, removed });
    keywords(listed.change === "values" ? ["enum", "const"] : ["anyOf", "oneOf"]);
  } else if (compactType(a) !== compactType(b))
    out.push({ path, change: "type", from: compactType(a), to: compactType(b) });
  else keywords([]);
}

/** Field-by-field differences of two versions of one schema, descriptions ignored. */
export function schemaChanges(before: JsonValue, after: JsonValue): SchemaChange[] {
  const changes: SchemaChange[] = [];
  compare(withoutDescriptions(before), withoutDescriptions(after), "", changes);
  return changes;
}

/** Each method of a revision with its roles, as the generator's protocol model finds them. */
export function methodRoles(schema: ProtocolSchema): Map<string, string[]> {
  const model = buildProtocolModel(schema);
  const roles = new Map<string, string[]>();
  const add = (method: string, role: string) => roles.set(method, [...(roles.get(method) ?? []), role]);
  for (const m of model.methods) add(m.method, `${m.direction === "client-to-server" ? "client" : "server"} ${m.kind}`);
  for (const m of model.inputRequests) add(m.method, "input request");
  return roles;
}

export function diffProtocols(before: ProtocolSchema, after: ProtocolSchema): ProtocolDiff {
  const [ra, rb] = [methodRoles(before), methodRoles(after)];
  const methods = [...new Set([...ra.keys(), ...rb.keys()])]
    .sort()
    .map((method) => ({ method, from: ra.get(method) ?? [], to: rb.get(method) ?? [] }));
  const [da, db] = [before.definitions, after.definitions];
  const differing = Object.keys(db)
    .filter((n) => n in da && !same(da[n], db[n]))
    .sort();
  const changed = differing.map((name) => ({
    name,
    changes: schemaChanges(da[name] as JsonValue, db[name] as JsonValue),
  }));
  return {
    from: before.revision,
    to: after.revision,
    methods: {
      added: methods.filter((m) => m.from.length === 0),
      removed: methods.filter((m) => m.to.length === 0),
      moved: methods.filter((m) => m.from.length > 0 && m.to.length > 0 && !same(m.from, m.to)),
    },
    types: {
      added: Object.keys(db)
        .filter((n) => !(n in da))
        .sort(),
      removed: Object.keys(da)
        .filter((n) => !(n in db))
        .sort(),
      changed: changed.filter((t) => t.changes.length > 0),
      descriptionOnly: changed.filter((t) => t.changes.length === 0).map((t) => t.name),
    },
  };
}

/** The definitions a schema reaches through $refs, transitively; with `skipMeta`, not through `_meta` fields. */
export function reachedTypes(
  definitions: Readonly<Record<string, SchemaObject>>,
  roots: readonly unknown[],
  options: { readonly skipMeta?: boolean } = {},
): Set<string> {
  const reached = new Set<string>();
  const walk = (schema: unknown) => {
    const walked = options.skipMeta ? without(schema as JsonValue, { property: "_meta" }) : (schema as JsonValue);
    for (const [, node] of schemaObjects(walked)) {
      const name = refName(node.$ref);
      if (name !== undefined && !reached.has(name) && definitions[name]) {
        reached.add(name);
        walk(definitions[name]);
      }
    }
  };
  roots.forEach(walk);
  return reached;
}
