// validators.gen.ts: one compiled validator per tool input (filling defaults) and per
// tool output, shared by the generated server (arguments, results) and client (results).
import type { Diagnostic } from "../../diagnostics.js";
import type { ServerModel } from "../../model/server.js";
import { stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { layoutFlatLines } from "../layout/print.js";
import { compileValidator, type RuntimeHelper } from "./compile-schema.js";

export function validatorNames(typeBase: string): { input: string; output: string } {
  return { input: `validate${typeBase}Input`, output: `validate${typeBase}Output` };
}

export function emitValidators(file: GeneratedFile, model: ServerModel, runtime: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const helpers = new Set<RuntimeHelper>();
  const w = file.writer;
  for (const tool of model.tools) {
    const names = validatorNames(tool.typeBase);
    const label = `tool ${stringLiteral(tool.key)}`;
    const specs = [
      { name: names.input, model: tool.input, applyDefaults: true, doc: `Checks the arguments of ${label} and fills in schema defaults.`, what: "input" },
      ...(tool.output ? [{ name: names.output, model: tool.output, applyDefaults: false, doc: `Checks the structured result of ${label}.`, what: "output" }] : []),
    ];
    for (const spec of specs) {
      const compiled = compileValidator({ name: spec.name, schema: spec.model.schema.value, dialect: spec.model.dialect, applyDefaults: spec.applyDefaults, doc: spec.doc });
      for (const problem of compiled.problems) {
        diagnostics.push({ location: spec.model.schema.locate(problem.pointer), message: `${spec.what} schema of ${label}: ${problem.message}` });
      }
      for (const helper of compiled.helpers) helpers.add(helper);
      // Validators are most of the generated code for a large manifest: they are emitted in
      // prettier's layout directly, and only a unit outside the modelled subset is formatted.
      if (compiled.lines.length > 0) {
        const laidOut = layoutFlatLines(compiled.lines, compiled.ascii);
        file.tail.push(laidOut === undefined ? { text: compiled.code, formatted: false } : { text: laidOut, formatted: true });
      }
    }
  }
  if (model.tools.length > 0) file.type(runtime, "ValidationIssue");
  for (const helper of helpers) file.value(runtime, helper);
  if (model.tools.length === 0) w.write("export {};").newLine();
  return diagnostics;
}
