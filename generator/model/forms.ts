// `elicitations:` of the manifest: forms a handler shows the user through ctx.elicit,
// restricted to what the protocol lets clients render.
import { quote, type Diagnostic } from "../diagnostics.js";
import type { ResolvedSchema } from "../load/schema-refs.js";
import { childPointer } from "../load/source.js";
import { clientAsks, type Declarations } from "./declarations.js";
import type { FormModel, JsonObject } from "./types.js";

export function buildForms(context: Declarations): FormModel[] {
  const { diagnostics } = context;
  const forms: FormModel[] = [];
  for (const { key, decl, pointer, declared } of context.declarations("form")) {
    const schema = context.schemaAt(decl, pointer, "schema", `schema of elicitation form ${quote(key)}`);
    if (!declared || !schema) continue;
    const problems = formSchemaProblems(schema.schema, key);
    if (problems.length > 0) {
      diagnostics.push(...problems);
      continue;
    }
    if (!context.supports(clientAsks.elicitation.since)) {
      diagnostics.push({ location: context.positions.key(pointer), message: `elicitation form ${quote(key)} needs protocol ${clientAsks.elicitation.since} or later; add it to \`protocol\` or remove the form` });
      continue;
    }
    forms.push({ ...declared, schema: schema.schema.value as JsonObject });
  }
  return forms;
}

/** Field types an elicitation form may have (the protocol's PrimitiveSchemaDefinition). */
const formFieldTypes = new Set(["string", "number", "integer", "boolean"]);

/**
 * Problems of an elicitation form's schema: the protocol restricts requestedSchema to an
 * object of flat primitive fields (strings with optional enum or format, numbers, booleans,
 * and lists of enum choices), so clients can render it as a form.
 */
function formSchemaProblems(schema: ResolvedSchema, key: string): Diagnostic[] {
  const value = schema.value as JsonObject;
  const what = `elicitation form ${quote(key)}`;
  if (value.type !== "object" || !value.properties || typeof value.properties !== "object" || Array.isArray(value.properties)) {
    return [{ location: schema.locate(""), message: `${what} must be \`type: object\` with \`properties\` (one per form field)` }];
  }
  const problems: Diagnostic[] = [];
  for (const [name, field] of Object.entries(value.properties as JsonObject)) {
    const f = (field ?? {}) as JsonObject;
    const items = (f.items ?? {}) as JsonObject;
    const choiceList = f.type === "array" && (Array.isArray(items.enum) || Array.isArray(items.anyOf));
    if (!choiceList && !(typeof f.type === "string" && formFieldTypes.has(f.type))) {
      problems.push({
        location: schema.locate(childPointer(childPointer("/properties", name), "type")),
        message: `field ${quote(name)} of ${what} must be a string, number, integer or boolean (or a list of enum choices); forms have no nested objects`,
      });
    }
  }
  return problems;
}
