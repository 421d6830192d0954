// allOf, anyOf, oneOf, not and if/then/else: they apply other schemas to the same value.
// Branches that may fail are tried in break mode inside labeled blocks.
import { stringLiteral } from "../../escape.js";
import { hasOwn, type JsonObject } from "../../../validate/schema-check.js";
import { Code } from "../code.js";
import { within, type Context, type SchemaEmitter } from "../emitter.js";

/** Returns the context after allOf, whose branches may have narrowed the types. */
export function emitAllOf(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): Context {
  const branches = schema["allOf"];
  if (!Array.isArray(branches)) return context;
  let types = context.types;
  for (const branch of branches) {
    if (out.terminated) break;
    // Every branch must hold, so a branch's checks are simply inlined; defaults flow in.
    types = emitter.emitSchema(branch, within(context, { types }), out);
  }
  return within(context, { types });
}

export function emitAnyOf(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  const branches = schema["anyOf"];
  if (!Array.isArray(branches)) return;
  const anyOfLabel = context.names.fresh("anyOf");
  const tries = [];
  for (const branch of branches) {
    const attempt = emitter.tryMatch(branch, context, "branch");
    if (!attempt.canFail) return; // this branch always matches, so anyOf holds
    if (!attempt.canPass) continue; // this branch never matches
    attempt.body.end(`break ${anyOfLabel};`, [anyOfLabel]); // matched
    tries.push(attempt);
  }
  const message = stringLiteral("must match a schema in anyOf");
  if (tries.length === 0) {
    emitter.failAlways(out, context, message);
    return;
  }
  // anyOf: { branch: { ...checks; break anyOf (matched) } ...; fail }
  const block = new Code();
  for (const attempt of tries) block.labeled(attempt.label, attempt.body);
  emitter.failAlways(block, context, message);
  out.labeled(anyOfLabel, block);
}

export function emitOneOf(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  const branches = schema["oneOf"];
  if (!Array.isArray(branches)) return;
  const matches = context.names.fresh("matches");
  let alwaysMatching = 0;
  const tries = [];
  for (const branch of branches) {
    const attempt = emitter.tryMatch(branch, context, "branch");
    if (!attempt.canFail) alwaysMatching++;
    else if (attempt.canPass) {
      attempt.body.line(`${matches}++;`);
      tries.push(attempt);
    }
  }
  const message = stringLiteral("must match exactly one schema in oneOf");
  if (alwaysMatching > 1 || (tries.length === 0 && alwaysMatching === 0)) {
    emitter.failAlways(out, context, message);
    return;
  }
  if (tries.length === 0) return; // exactly one branch, always matching
  // Count the matching branches; exactly one may match.
  out.line(`let ${matches} = ${alwaysMatching};`);
  for (const attempt of tries) out.labeled(attempt.label, attempt.body);
  emitter.failIf(out, context, `${matches} !== 1`, message);
}

export function emitNot(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  if (!hasOwn(schema, "not")) return;
  const attempt = emitter.tryMatch(schema["not"], context, "not");
  const message = stringLiteral("must NOT be valid");
  if (!attempt.canFail) {
    emitter.failAlways(out, context, message);
    return;
  }
  if (!attempt.canPass) return;
  // not: { ...checks (break when the value does not match); fail (it matched) }
  emitter.failAlways(attempt.body, context, message);
  out.labeled(attempt.label, attempt.body);
}

export function emitConditional(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  if (!hasOwn(schema, "if")) return;
  const hasThen = hasOwn(schema, "then");
  const hasElse = hasOwn(schema, "else");
  if (!hasThen && !hasElse) return;
  // then/else apply for real (their issue is reported as is), but never fill defaults:
  // which branch applies depends on the value, like anyOf.
  const branchContext = within(context, { defaults: false });
  const attempt = emitter.tryMatch(schema["if"], context, "if");
  if (!attempt.canFail) {
    if (hasThen) emitter.emitSchema(schema["then"], branchContext, out);
    return;
  }
  if (!attempt.canPass) {
    if (hasElse) emitter.emitSchema(schema["else"], branchContext, out);
    return;
  }
  // The "then" checks run inside the "if" block, where the value is narrowed like "if" left it.
  if (hasThen) emitter.emitSchema(schema["then"], { ...branchContext, types: attempt.types }, attempt.body);
  if (!hasElse) {
    // if: { ...if checks (break when not matching); ...then checks }
    out.labeled(attempt.label, attempt.body);
    return;
  }
  // conditional: { if: { ...if checks; ...then checks; break conditional } ...else checks }
  const conditionalLabel = context.names.fresh("conditional");
  attempt.body.end(`break ${conditionalLabel};`, [conditionalLabel]);
  const block = new Code();
  block.labeled(attempt.label, attempt.body);
  emitter.emitSchema(schema["else"], branchContext, block);
  out.labeled(conditionalLabel, block);
}
