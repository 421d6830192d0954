// ajv as the reference the generated validators and types are compared with: the options
// under which mcp-gen's validators give ajv's verdicts (formats are annotations, own
// properties only) and, for draft-07, the siblings of a $ref ignored as that draft specifies.
// Used by the compiler's differential test, the type tests and fuzz/manifests.ts.
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";

/** ajv's verdict on values for `schema`; throws when ajv cannot compile it. */
export function ajvReference(dialect: "2020-12" | "draft-07", schema: unknown): (value: unknown) => boolean {
  const common = {
    strict: false,
    allErrors: false,
    validateFormats: false,
    ownProperties: true,
    logger: false,
  } as const;
  const ajv = dialect === "2020-12" ? new Ajv2020(common) : new Ajv({ ...common, ignoreKeywordsWithRef: true });
  const validate = ajv.compile(schema as object | boolean);
  return (value) => validate(value) === true;
}
