// Array keywords: maxItems/minItems, items and prefixItems (draft-07: items as a list and
// additionalItems), uniqueItems and contains (2020-12: minContains/maxContains).
import { numberLiteral, stringLiteral } from "../../escape.js";
import { hasOwn, isJsonObject, isRefOnly, type JsonObject } from "../../../validate/schema-check.js";
import { Code } from "../code.js";
import { within, type Context, type SchemaEmitter } from "../emitter.js";
import { ANY, SCALAR, typeMask } from "../json-types.js";

/** Above this length, uniqueItems over scalar items uses a Map instead of comparing all pairs. */
const uniqueItemsMapThreshold = 16;

export function emitArrayKeywords(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  const names = context.names;
  const array = names.fresh("array", context.value, true);
  const length = names.fresh("length", context.value, true);
  const body = new Code();
  emitCountBounds(emitter, schema["maxItems"], schema["minItems"], length, length, "items", context, body);

  // Tuple schemas for the first items, then one schema for the rest.
  let tuple: readonly unknown[] = [];
  let rest: unknown = true;
  if (emitter.dialect === "2020-12") {
    if (Array.isArray(schema["prefixItems"])) tuple = schema["prefixItems"];
    if (hasOwn(schema, "items")) rest = schema["items"];
  } else if (Array.isArray(schema["items"])) {
    tuple = schema["items"];
    if (hasOwn(schema, "additionalItems")) rest = schema["additionalItems"];
  } else if (hasOwn(schema, "items")) {
    rest = schema["items"];
  }
  tuple.forEach((itemSchema, index) => {
    const path = [...context.path, { kind: "static", token: String(index) } as const];
    const itemCode = emitter.emitForNewValue(itemSchema, array, String(index), "item", path, context, false);
    if (!itemCode.isEmpty) body.block(`if (${length} > ${index})`, itemCode, [length]);
  });
  if (rest === false) {
    emitCountBounds(emitter, tuple.length, undefined, length, length, "items", context, body);
  } else if (rest !== true) {
    const index = names.fresh("index", context.value);
    const path = [...context.path, { kind: "index", variable: index } as const];
    const itemCode = emitter.emitForNewValue(rest, array, index, "item", path, context, false);
    if (!itemCode.isEmpty)
      body.block(`for (let ${index} = ${tuple.length}; ${index} < ${length}; ${index}++)`, itemCode, [length]);
  }

  if (schema["uniqueItems"] === true) {
    // items ran first, so a scalar `type` on them is already guaranteed here.
    const restType = isJsonObject(rest) && !isRefOnly(rest, emitter.dialect) ? rest["type"] : undefined;
    const restMask = typeof restType === "string" || Array.isArray(restType) ? typeMask(restType) : ANY;
    const scalarItems = tuple.length === 0 && (restMask & ~SCALAR) === 0;
    emitUniqueItems(emitter, array, length, scalarItems, context, body);
  }
  if (hasOwn(schema, "contains")) emitContains(emitter, schema, array, length, context, body);

  if (body.uses(array) || body.uses(length))
    out.line(`const ${array} = ${context.value} as readonly unknown[];`, [context.value]);
  if (body.uses(length)) out.line(`const ${length} = ${array}.length;`, [array]);
  out.append(body);
}

/** maxItems/minItems or maxProperties/minProperties: `count` (using `countOf`) is how many `noun` the value has. */
export function emitCountBounds(
  emitter: SchemaEmitter,
  max: unknown,
  min: unknown,
  count: string,
  countOf: string,
  noun: string,
  context: Context,
  out: Code,
): void {
  if (typeof max === "number") {
    emitter.failIf(
      out,
      context,
      `${count} > ${numberLiteral(max)}`,
      stringLiteral(`must NOT have more than ${max} ${noun}`),
      [countOf],
    );
  }
  if (typeof min === "number" && min > 0) {
    emitter.failIf(
      out,
      context,
      `${count} < ${numberLiteral(min)}`,
      stringLiteral(`must NOT have fewer than ${min} ${noun}`),
      [countOf],
    );
  }
}

/** Reports the first later item equal to an earlier one, as "items ## later and earlier". */
function emitUniqueItems(
  emitter: SchemaEmitter,
  array: string,
  length: string,
  scalarItems: boolean,
  context: Context,
  out: Code,
): void {
  const later = context.names.fresh("later");
  const earlier = context.names.fresh("earlier");
  const message = `"must NOT have duplicate items (items ## " + ${later} + " and " + ${earlier} + " are identical)"`;
  const inner = new Code();
  emitter.failIf(inner, context, `deepEqual(${array}[${later}], ${array}[${earlier}])`, message, ["deepEqual", array]);
  const pairs = new Code();
  const outer = new Code();
  outer.block(`for (let ${earlier} = 0; ${earlier} < ${later}; ${earlier}++)`, inner);
  pairs.block(`for (let ${later} = 1; ${later} < ${length}; ${later}++)`, outer, [length]);
  if (!scalarItems) {
    out.append(pairs);
    return;
  }
  // Scalar items: comparing all pairs is quadratic, so long arrays use a Map from item to
  // its first index (SameValueZero matches deepEqual on strings, numbers, booleans, null).
  const firstIndex = context.names.fresh("firstIndex");
  const viaMap = new Code();
  viaMap.line(`const ${firstIndex} = new Map<unknown, number>();`);
  const loop = new Code();
  loop.line(`const ${earlier} = ${firstIndex}.get(${array}[${later}]);`, [array]);
  emitter.failIf(loop, context, `${earlier} !== undefined`, message);
  loop.line(`${firstIndex}.set(${array}[${later}], ${later});`, [array]);
  viaMap.block(`for (let ${later} = 0; ${later} < ${length}; ${later}++)`, loop, [length]);
  out.ifElse(`${length} > ${uniqueItemsMapThreshold}`, viaMap, pairs, [length]);
}

function emitContains(
  emitter: SchemaEmitter,
  schema: JsonObject,
  array: string,
  length: string,
  context: Context,
  out: Code,
): void {
  const is2020 = emitter.dialect === "2020-12";
  const min = is2020 && typeof schema["minContains"] === "number" ? schema["minContains"] : 1;
  const max = is2020 && typeof schema["maxContains"] === "number" ? schema["maxContains"] : undefined;
  const tooFew = stringLiteral(`must contain at least ${min} valid item(s)`);
  const tooMany = stringLiteral(`must contain at most ${max} valid item(s)`);
  const index = context.names.fresh("index", context.value);
  const path = [...context.path, { kind: "index", variable: index } as const];
  const label = context.names.fresh("contains");
  const attemptContext = within(context, { path, mode: { kind: "break", label } });
  const attempt = emitter.emitForNewValue(schema["contains"], array, index, "item", path, attemptContext, false);
  if (!attempt.uses(label)) {
    // Every item matches: the count is the length.
    if (min > 0) emitter.failIf(out, context, `${length} < ${numberLiteral(min)}`, tooFew, [length]);
    if (max !== undefined) emitter.failIf(out, context, `${length} > ${numberLiteral(max)}`, tooMany, [length]);
    return;
  }
  if (attempt.terminated) {
    // No item can match.
    if (min > 0) emitter.failAlways(out, context, tooFew);
    return;
  }
  if (min === 0 && max === undefined) return;
  const matches = context.names.fresh("matches");
  attempt.line(`${matches}++;`);
  // Without maxContains, stop counting as soon as enough items matched.
  if (max === undefined) attempt.line(`if (${matches} === ${numberLiteral(min)}) break;`);
  const loopBody = new Code();
  loopBody.labeled(label, attempt);
  out.line(`let ${matches} = 0;`);
  out.block(`for (let ${index} = 0; ${index} < ${length}; ${index}++)`, loopBody, [length]);
  if (min > 0) emitter.failIf(out, context, `${matches} < ${numberLiteral(min)}`, tooFew);
  if (max !== undefined) emitter.failIf(out, context, `${matches} > ${numberLiteral(max)}`, tooMany);
}
