// Validators of the client's answers to what handlers ask (`asks:`, through ctx.input and
// ctx.request): for each method the manifest's `asks:` use, its result type
// (ElicitResult, CreateMessageResult, ListRootsResult) as each served revision's schema
// defines it, compiled ahead of time like the tool validators. Revisions whose types
// compile to the same code share one validator, and the protocol types they refer to are
// checked by one helper each wherever revisions define them alike (validateRole); a server
// that asks nothing gets none.
import type { ProtocolModel } from "../../model/protocol.js";
import { refName, revisionNamespace } from "../../model/protocol.js";
import { clientAsks } from "../../model/declarations.js";
import type { ClientAsk } from "../../model/types.js";
import type { Revision } from "../../load/revisions.js";
import { Verbatim } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { compileValidator, type HelperNamer, type SharedHelpers } from "../validators/compile-schema.js";
import { pointerTokens } from "../../load/source.js";

/** The definition names `value` refers to ($ref), anywhere in it. */
function refsIn(value: unknown, into: string[]): void {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const name = key === "$ref" ? refName(item) : undefined;
      if (name !== undefined) into.push(name);
      else refsIn(item, into);
    }
  }
}

/** A revision's definition `name` as a schema of its own: the definition, carrying every definition it refers to. */
function selfContained(protocol: ProtocolModel, name: string): unknown {
  const definitions = protocol.schema.definitions;
  const needed = new Set<string>();
  const queue = [name];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (needed.has(next) || definitions[next] === undefined) continue;
    needed.add(next);
    refsIn(definitions[next], queue);
  }
  const carried: Record<string, unknown> = {};
  for (const key of Object.keys(definitions)) if (needed.has(key) && key !== name) carried[key] = definitions[key];
  return { ...definitions[name], [protocol.schema.dialect === "2020-12" ? "$defs" : "definitions"]: carried };
}

/** The result definition of the server-to-client request `method` in a revision, if the revision has the request. */
function resultOf(protocol: ProtocolModel, method: string): string | undefined {
  const request = [...protocol.methods, ...protocol.inputRequests].find(
    (m) => m.method === method && m.direction === "server-to-client" && m.kind === "request",
  );
  return request?.results.find((r) => r !== "InputRequiredResult");
}

/** Revisions whose result type compiles alike, checked by one validator. */
interface Variant {
  readonly method: string;
  readonly definition: string;
  readonly code: string;
  readonly schema: unknown;
  readonly dialect: ProtocolModel["schema"]["dialect"];
  readonly revisions: Revision[];
  name: string;
}

/** The variants of the result types of the methods `asks` uses, by method, named. */
function answerVariants(asks: ReadonlySet<ClientAsk>, protocols: readonly ProtocolModel[]): Variant[] {
  const variants: Variant[] = [];
  for (const ask of Object.keys(clientAsks) as ClientAsk[]) {
    if (!asks.has(ask)) continue;
    const method = clientAsks[ask].method;
    const own: Variant[] = [];
    for (const protocol of protocols) {
      const definition = resultOf(protocol, method);
      if (definition === undefined) continue;
      const schema = selfContained(protocol, definition);
      // Compiled under one name first, so that revisions whose types compile alike share a validator.
      const { code } = compileValidator({
        name: `validate${definition}`,
        schema,
        dialect: protocol.schema.dialect,
        applyDefaults: false,
      });
      const same = own.find((v) => v.definition === definition && v.code === code);
      if (same) same.revisions.push(protocol.revision);
      else
        own.push({
          method,
          definition,
          code,
          schema,
          dialect: protocol.schema.dialect,
          revisions: [protocol.revision],
          name: "",
        });
    }
    for (const variant of own) {
      const only = own.filter((v) => v.definition === variant.definition).length === 1;
      variant.name = `validate${variant.definition}${only ? "" : revisionNamespace(variant.revisions[0]!).slice(1)}`;
    }
    variants.push(...own);
  }
  return variants;
}

/**
 * Names the helper of a protocol type (`#/$defs/Role`) after the type, `validateRole`, for
 * every revision that defines it alike; a form that differs is named after the first
 * revision that has it (`validateRole2025_03_26`). Other targets keep the default name.
 */
function helperNamer(taken: Map<string, string | undefined>): (variant: Variant) => HelperNamer {
  return (variant) => (pointer, sharingKey) => {
    const tokens = pointerTokens(pointer);
    if (
      tokens.length !== 2 ||
      (tokens[0] !== "$defs" && tokens[0] !== "definitions") ||
      !/^[A-Za-z0-9_]+$/.test(tokens[1]!)
    )
      return undefined;
    const candidates = [
      `validate${tokens[1]}`,
      `validate${tokens[1]}${revisionNamespace(variant.revisions[0]!).slice(1)}`,
    ];
    const name = candidates.find((candidate) => !taken.has(candidate) || taken.get(candidate) === sharingKey);
    if (name !== undefined) taken.set(name, sharingKey);
    return name;
  };
}

/**
 * Writes the validators of the answers to the methods `asks` uses (into `file`) and
 * returns the definition's `answers` table (method -> revision -> validator), or undefined
 * when nothing is asked.
 */
export function emitAnswerValidators(
  file: GeneratedFile,
  asks: ReadonlySet<ClientAsk>,
  protocols: readonly ProtocolModel[],
  runtime: string,
): Record<string, Record<string, Verbatim>> | undefined {
  const variants = answerVariants(asks, protocols);
  if (variants.length === 0) return undefined;
  // Helpers of protocol types are shared by every validator here: a type defined alike in several revisions is checked once.
  const sharedHelpers: SharedHelpers = new Map();
  const nameHelper = helperNamer(new Map(variants.map((variant) => [variant.name, undefined])));
  const methods: Record<string, Record<string, Verbatim>> = {};
  for (const variant of variants) {
    const compiled = compileValidator({
      name: variant.name,
      schema: variant.schema,
      dialect: variant.dialect,
      applyDefaults: false,
      exported: false,
      doc: `Checks a client's ${variant.definition} (its answer to ${variant.method}) under protocol ${variant.revisions.join(", ")}.`,
      sharedHelpers,
      helperName: nameHelper(variant),
    });
    for (const helper of compiled.helpers) file.value(runtime, helper);
    // Module-private: the definition is their only user (index.ts re-exports what server.gen.ts exports).
    compiled.write(file.writer);
    file.writer.line();
    const byRevision = (methods[variant.method] ??= {});
    for (const revision of variant.revisions) byRevision[revision] = new Verbatim(variant.name);
  }
  file.type(runtime, "ValidationIssue");
  return methods;
}
