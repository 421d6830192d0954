// The `type`, `const` and `enum` keywords: a type test that narrows what the value may
// be for the checks after it, and comparisons with allowed values.
import { inlineLiteral, stringLiteral } from "../../escape.js";
import type { Code } from "../code.js";
import type { Context, SchemaEmitter } from "../emitter.js";
import { notOfTypes, typeMask, valueMask } from "../json-types.js";

export function emitType(emitter: SchemaEmitter, type: unknown, context: Context, out: Code): number {
  const names = (typeof type === "string" ? [type] : (type as string[])).filter((n) => typeof n === "string");
  const allowed = typeMask(names);
  if ((context.types & ~allowed) === 0) return context.types; // already known to hold
  const message = stringLiteral(`must be ${names.join(",")}`);
  if ((context.types & allowed) === 0) {
    emitter.failAlways(out, context, message);
    return 0;
  }
  emitter.failIf(out, context, notOfTypes(context.value, allowed), message, [context.value]);
  return context.types & allowed;
}

export function emitEqualsOneOf(
  emitter: SchemaEmitter,
  members: readonly unknown[],
  context: Context,
  out: Code,
  message: string,
): void {
  // Members whose type the value can no longer have cannot match.
  const candidates = members.filter((m) => (valueMask(m) & context.types) !== 0);
  if (candidates.length === 0) {
    emitter.failAlways(out, context, stringLiteral(message));
    return;
  }
  const primitives = candidates.filter((m) => m === null || typeof m !== "object");
  const structured = candidates.filter((m) => m !== null && typeof m === "object");
  const value = context.value;
  const conditions: string[] = [];
  const uses = [value];
  if (primitives.length > 4) {
    const set = emitter.scope.setConstant(
      "values",
      "unknown",
      primitives.map((m) => inlineLiteral(m)),
      context.value,
    );
    conditions.push(`!${set}.has(${value})`);
    uses.push(set);
  } else {
    for (const member of primitives) conditions.push(`(${value} as unknown) !== ${inlineLiteral(member)}`);
  }
  for (const member of structured) {
    const literal = emitter.scope.constant(
      "value",
      JSON.stringify(member),
      inlineLiteral(member),
      context.value,
      ": unknown",
    );
    conditions.push(`!deepEqual(${value}, ${literal})`);
    uses.push("deepEqual", literal);
  }
  emitter.failIf(out, context, conditions.join(" && "), stringLiteral(message), uses);
}
