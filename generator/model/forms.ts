// `elicitations:` of the manifest: forms a handler shows the user through ctx.elicit,
// restricted to what the protocol lets clients render.
import { quote, type Diagnostic } from "../diagnostics.js";
import type { ResolvedSchema } from "../load/schema-refs.js";
import { childPointer } from "../load/source.js";
import { isJsonObject } from "../validate/schema-check.js";
import { clientAsks, type Declarations } from "./declarations.js";
import type { FormModel, JsonObject } from "./types.js";

export function buildForms(context: Declarations): FormModel[] {
  const { diagnostics } = context;
  const forms: FormModel[] = [];
  for (const { key, decl, pointer, declared } of context.declarations("form")) {
    const schema = context.schemaAt(decl.schema, pointer, "schema");
    if (!declared || !schema) continue;
    const form = formSchema(schema.schema, key);
    if ("problems" in form) {
      diagnostics.push(...form.problems);
      continue;
    }
    if (!context.supports(clientAsks.elicitation.since)) {
      diagnostics.push({
        location: context.positions.key(pointer),
        message: `elicitation form ${quote(key)} needs protocol ${clientAsks.elicitation.since} or later; add it to \`protocol\` or remove the form`,
      });
      continue;
    }
    forms.push({ ...declared, schema: form.schema });
  }
  return forms;
}

/** Field types an elicitation form may have (the protocol's PrimitiveSchemaDefinition). */
const formFieldTypes = new Set(["string", "number", "integer", "boolean"]);

/**
 * An elicitation form's schema, or its problems: the protocol restricts requestedSchema to
 * an object of flat primitive fields (strings with optional enum or format, numbers,
 * booleans, and lists of enum choices), so clients can render it as a form.
 */
function formSchema(schema: ResolvedSchema, key: string): { schema: JsonObject } | { problems: Diagnostic[] } {
  const value = schema.value;
  const what = `elicitation form ${quote(key)}`;
  if (!isJsonObject(value) || value.type !== "object" || !isJsonObject(value.properties)) {
    return {
      problems: [
        {
          location: schema.locate(""),
          message: `${what} must be \`type: object\` with \`properties\` (one per form field)`,
        },
      ],
    };
  }
  const problems: Diagnostic[] = [];
  for (const [name, f] of Object.entries(value.properties)) {
    const items = isJsonObject(f) ? f.items : undefined;
    const choiceList =
      isJsonObject(f) &&
      f.type === "array" &&
      isJsonObject(items) &&
      (Array.isArray(items.enum) || Array.isArray(items.anyOf));
    if (!choiceList && !(isJsonObject(f) && typeof f.type === "string" && formFieldTypes.has(f.type))) {
      problems.push({
        location: schema.locate(childPointer(childPointer("/properties", name), "type")),
        message: `field ${quote(name)} of ${what} must be a string, number, integer or boolean (or a list of enum choices); forms have no nested objects`,
      });
    }
  }
  return problems.length > 0 ? { problems } : { schema: value };
}
