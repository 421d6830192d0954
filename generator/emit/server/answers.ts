// Validators of the client's answers to what handlers ask (`asks:`, through ctx.input and
// ctx.request): for each method the manifest's `asks:` use, its result type
// (ElicitResult, CreateMessageResult, ListRootsResult) as each served revision's schema
// defines it, compiled ahead of time like the tool validators. Revisions whose types
// compile to the same code share one validator; a server that asks nothing gets none.
import type { ProtocolModel } from "../../model/protocol.js";
import { refName, revisionNamespace } from "../../model/protocol.js";
import { clientAsks } from "../../model/declarations.js";
import type { ClientAsk } from "../../model/types.js";
import type { Revision } from "../../load/revisions.js";
import { Code } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { compileValidator } from "../validators/compile-schema.js";

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
  const request = [...protocol.methods, ...protocol.inputRequests].find((m) => m.method === method && m.direction === "server-to-client" && m.kind === "request");
  return request?.results.find((r) => r !== "InputRequiredResult");
}

/**
 * Writes the validators of the answers to the methods `asks` uses (into `file`) and
 * returns the definition's `answers` table (method -> revision -> validator), or undefined
 * when nothing is asked.
 */
export function emitAnswerValidators(file: GeneratedFile, asks: ReadonlySet<ClientAsk>, protocols: readonly ProtocolModel[], runtime: string): Record<string, Record<string, Code>> | undefined {
  const methods: Record<string, Record<string, Code>> = {};
  for (const ask of Object.keys(clientAsks) as ClientAsk[]) {
    if (!asks.has(ask)) continue;
    const method = clientAsks[ask].method;
    // Compiled under one name first, so that revisions whose types compile alike share a validator.
    const variants: { code: string; definition: string; schema: unknown; dialect: ProtocolModel["schema"]["dialect"]; revisions: Revision[] }[] = [];
    for (const protocol of protocols) {
      const definition = resultOf(protocol, method);
      if (definition === undefined) continue;
      const schema = selfContained(protocol, definition);
      const probe = compileValidator({ name: `validate${definition}`, schema, dialect: protocol.schema.dialect, applyDefaults: false });
      const same = variants.find((v) => v.definition === definition && v.code === probe.code);
      if (same) same.revisions.push(protocol.revision);
      else variants.push({ code: probe.code, definition, schema, dialect: protocol.schema.dialect, revisions: [protocol.revision] });
    }
    if (variants.length === 0) continue;
    const byRevision: Record<string, Code> = {};
    for (const variant of variants) {
      const only = variants.filter((v) => v.definition === variant.definition).length === 1;
      const name = `validate${variant.definition}${only ? "" : revisionNamespace(variant.revisions[0]!).slice(1)}`;
      const compiled = compileValidator({
        name,
        schema: variant.schema,
        dialect: variant.dialect,
        applyDefaults: false,
        exported: false,
        doc: `Checks a client's ${variant.definition} (its answer to ${method}) under protocol ${variant.revisions.join(", ")}.`,
      });
      for (const helper of compiled.helpers) file.value(runtime, helper);
      // Module-private: the definition is their only user (index.ts re-exports what server.gen.ts exports).
      file.writer.raw(compiled.code).line();
      for (const revision of variant.revisions) byRevision[revision] = new Code(name);
    }
    methods[method] = byRevision;
  }
  if (Object.keys(methods).length === 0) return undefined;
  file.type(runtime, "ValidationIssue");
  return methods;
}
