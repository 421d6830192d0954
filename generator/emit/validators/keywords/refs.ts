// `$ref`: a call of the helper function compiled once for the target (module-scope.ts).
import type { Code } from "../code.js";
import { pathExpression } from "../code.js";
import { pathUses, type Context, type SchemaEmitter } from "../emitter.js";

export function emitRef(emitter: SchemaEmitter, ref: string, context: Context, out: Code): void {
  const pointer = emitter.scope.refTarget(ref);
  const defaults = context.defaults && emitter.scope.fillsDefaults(pointer);
  const helper = emitter.scope.helperFor(pointer, defaults);
  if (context.mode.kind === "break") {
    const label = context.mode.label;
    out.line(`if (${helper}(${context.value}) !== undefined) break ${label};`, [helper, context.value, label]);
    return;
  }
  const issue = context.names.fresh("issue", context.value);
  out.line(`const ${issue} = ${helper}(${context.value});`, [helper, context.value]);
  if (context.path.length === 0) {
    out.line(`if (${issue} !== undefined) return ${issue};`);
  } else {
    // The helper reports paths relative to the referenced value; prefix ours.
    out.line(
      `if (${issue} !== undefined) return { path: ${pathExpression(context.path)} + ${issue}.path, message: ${issue}.message };`,
      pathUses(context.path),
    );
  }
}
