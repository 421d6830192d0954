// String keywords: maxLength and minLength (in code points), pattern.
import { numberLiteral, stringLiteral } from "../../escape.js";
import type { JsonObject } from "../../../validate/schema-check.js";
import type { Code } from "../code.js";
import type { Context, SchemaEmitter } from "../emitter.js";

export function emitStringKeywords(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  const value = context.value;
  const maxLength = schema["maxLength"];
  const minLength = schema["minLength"];
  const needsLength = typeof maxLength === "number" || (typeof minLength === "number" && minLength > 0);
  if (needsLength) {
    // Lengths count code points: a surrogate pair is two UTF-16 units but one character.
    // A string has between length/2 and length code points, so only strings in between
    // the bounds need counting. (The cast keeps this valid where TypeScript narrowed more.)
    const length = context.names.fresh("length", value, true);
    out.line(`const ${length} = (${value} as string).length;`, [value]);
    if (typeof maxLength === "number") {
      const message = stringLiteral(`must NOT have more than ${maxLength} characters`);
      emitter.failIf(
        out,
        context,
        `${length} > ${numberLiteral(maxLength)} && (${length} > ${numberLiteral(2 * maxLength)} || codePointLength(${value}) > ${numberLiteral(maxLength)})`,
        message,
        [length, "codePointLength", value],
      );
    }
    if (typeof minLength === "number" && minLength > 0) {
      const message = stringLiteral(`must NOT have fewer than ${minLength} characters`);
      if (minLength === 1) {
        emitter.failIf(out, context, `${length} === 0`, message, [length]);
      } else {
        const condition = `${length} < ${numberLiteral(minLength)} || (${length} < ${numberLiteral(2 * minLength)} && codePointLength(${value}) < ${numberLiteral(minLength)})`;
        emitter.failIf(out, context, condition, message, [length, "codePointLength", value]);
      }
    }
  }
  const pattern = schema["pattern"];
  if (typeof pattern === "string") {
    const regExp = emitter.scope.regExpConstant(pattern, value);
    emitter.failIf(out, context, `!${regExp}.test(${value})`, stringLiteral(`must match pattern "${pattern}"`), [
      regExp,
      value,
    ]);
  }
}
