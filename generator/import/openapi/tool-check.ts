// The generator's own checks of tool schemas, run on each imported tool: an operation whose
// converted schema `mcp-gen` (generate) would refuse — a pattern that is no ECMAScript regular
// expression, a negative `minLength`, a `$ref` cycle that never descends, a default its schema
// rejects — is left out (input) or loses its output schema (output), with a warning at the
// operation, so that every project an import writes generates.
import { isWarning } from "../../diagnostics.js";
import type { JsonValue } from "../../load/source.js";
import { checkJsonSchema } from "../../validate/json-schema.js";
import { manifestKeys } from "../../validate/manifest-shape.js";
import type { ImportWarnings } from "./document.js";
import type { Schema } from "./schemas.js";

/** Why generate would refuse a tool's input or output schema (its first error), or undefined. */
function refusal(schema: Schema, field: "input" | "output"): string | undefined {
  const { diagnostics } = checkJsonSchema(
    {
      value: schema as JsonValue,
      pointer: `/${field}`,
      files: [],
      locate: () => ({ file: "mcp.yaml", line: 1, col: 1 }),
    },
    `its ${field} schema`,
    {
      toolInput: field === "input",
      // as the imported manifest says: `lenientSchemas: true`
      place: { field, owner: "tool", ownerKeys: manifestKeys("tool"), lenient: true },
    },
  );
  return diagnostics.find((d) => !isWarning(d))?.message;
}

/** What the check reads of an imported tool (operations.ts's ImportedTool). */
interface ToolSchemas {
  readonly input: Schema;
  readonly output?: Schema | undefined;
  readonly operation: { readonly output?: unknown };
}

/** The tool as generate accepts it, or undefined when its input cannot be; warnings at `pointer` (the operation's). */
export function acceptedTool<T extends ToolSchemas>(tool: T, pointer: string, warnings: ImportWarnings): T | undefined {
  const input = refusal(tool.input, "input");
  if (input !== undefined) {
    warnings.add(pointer, `operation left out: ${input}`);
    return undefined;
  }
  if (tool.output === undefined) return tool;
  const output = refusal(tool.output, "output");
  if (output === undefined) return tool;
  warnings.add(`${pointer}/responses`, `${output}; the tool is imported without an output schema (results as content)`);
  const { output: _dropped, ...rest } = tool;
  const { output: _spec, ...operation } = tool.operation;
  return { ...rest, operation } as unknown as T;
}
