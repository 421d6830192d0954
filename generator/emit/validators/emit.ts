// validators.gen.ts: one compiled validator per tool input (filling defaults) and per
// tool output, shared by the generated server (arguments, results) and client (results).
// The schemas passed the validate phase's checks (schema-check.ts): emitting cannot fail.
import type { ToolModel } from "../../model/types.js";
import { stringLiteral } from "../escape.js";
import { CodeWriter, type GeneratedFile } from "../file.js";
import { compileValidator, type RuntimeHelper, type SharedHelpers } from "./compile-schema.js";

export function validatorNames(typeBase: string): { input: string; output: string } {
  return { input: `validate${typeBase}Input`, output: `validate${typeBase}Output` };
}

/** What compiling a tool's validators reads of it (a server's tools; an imported catalog's operations). */
export type ValidatedTool = Pick<ToolModel, "key" | "typeBase"> & {
  readonly input: Pick<ToolModel["input"], "dialect" | "analysis"> & { readonly schema: { readonly value: unknown } };
  readonly output?: ValidatedTool["input"] | undefined;
};

export function emitValidators(
  file: GeneratedFile,
  model: { readonly tools: readonly ValidatedTool[] },
  runtime: string,
): void {
  const helpers = new Set<RuntimeHelper>();
  const sharedHelpers: SharedHelpers = new Map();
  // Written as each is compiled, so that its statement fragments are garbage at once (held
  // until the end, a thousand tools' fragments cost more in garbage collection than compiling).
  const validators = new CodeWriter();
  let sharing = false;
  for (const tool of model.tools) {
    const names = validatorNames(tool.typeBase);
    const label = `tool ${stringLiteral(tool.key)}`;
    const specs = [
      {
        name: names.input,
        model: tool.input,
        applyDefaults: true,
        doc: `Checks the arguments of ${label} and fills in schema defaults.`,
      },
      ...(tool.output
        ? [
            {
              name: names.output,
              model: tool.output,
              applyDefaults: false,
              doc: `Checks the structured result of ${label}.`,
            },
          ]
        : []),
    ];
    for (const spec of specs) {
      const compiled = compileValidator({
        name: spec.name,
        schema: spec.model.schema.value,
        dialect: spec.model.dialect,
        analysis: spec.model.analysis,
        applyDefaults: spec.applyDefaults,
        doc: spec.doc,
        sharedHelpers,
      });
      for (const helper of compiled.helpers) helpers.add(helper);
      if (compiled.callsSharedHelpers) sharing = true;
      compiled.write(validators);
      validators.line();
    }
  }
  const w = file.writer;
  if (sharing) {
    w.line(
      "// Validators whose $ref targets are identical share one helper for each, named after the first validator that needs it.",
    );
    w.line();
  }
  w.raw(validators.toString());
  if (model.tools.length > 0) file.type(runtime, "ValidationIssue");
  for (const helper of helpers) file.value(runtime, helper);
  if (model.tools.length === 0) w.line("export {};");
}
