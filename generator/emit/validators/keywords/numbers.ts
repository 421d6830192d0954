// Number keywords: maximum, exclusiveMaximum, minimum, exclusiveMinimum, multipleOf.
import { numberLiteral, stringLiteral } from "../../escape.js";
import type { JsonObject } from "../../../validate/schema-check.js";
import type { Code } from "../code.js";
import type { Context, SchemaEmitter } from "../emitter.js";

export function emitNumberKeywords(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  const value = context.value;
  const limits: Array<[keyword: string, failsWhen: string, message: string]> = [
    ["maximum", ">", "<="],
    ["exclusiveMaximum", ">=", "<"],
    ["minimum", "<", ">="],
    ["exclusiveMinimum", "<=", ">"],
  ];
  for (const [keyword, failsWhen, requirement] of limits) {
    const limit = schema[keyword];
    if (typeof limit !== "number") continue;
    const message = stringLiteral(`must be ${requirement} ${limit}`);
    emitter.failIf(out, context, `${value} ${failsWhen} ${numberLiteral(limit)}`, message, [value]);
  }
  const divisor = schema["multipleOf"];
  if (typeof divisor === "number") {
    const message = stringLiteral(`must be multiple of ${divisor}`);
    if (Number.isInteger(divisor)) {
      // Exact for any finite value: % on doubles does not round.
      emitter.failIf(out, context, `${value} % ${numberLiteral(divisor)} !== 0`, message, [value]);
    } else {
      // A fractional divisor such as 0.01 has no exact binary form, so value / divisor
      // is an integer only up to rounding: allow a few units in the last place.
      const quotient = context.names.fresh("quotient", value, true);
      out.line(`const ${quotient} = ${value} / ${numberLiteral(divisor)};`, [value]);
      emitter.failIf(
        out,
        context,
        `Math.abs(${quotient} - Math.round(${quotient})) > Math.abs(${quotient}) * 4 * Number.EPSILON`,
        message,
      );
    }
  }
}
