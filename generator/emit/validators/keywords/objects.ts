// Object keywords: defaults filled first (so `required` sees them), required, the
// property count, dependencies, propertyNames, properties, then patternProperties and
// additionalProperties in one pass over the keys.
import { inlineLiteral, stringLiteral } from "../../escape.js";
import { hasDefault, hasOwn, isJsonObject, type JsonObject } from "../../../validate/schema-check.js";
import { Code, propertyNameHint } from "../code.js";
import { within, type Context, type SchemaEmitter } from "../emitter.js";
import { STRING } from "../json-types.js";
import { emitCountBounds } from "./arrays.js";

export function emitObjectKeywords(emitter: SchemaEmitter, schema: JsonObject, context: Context, out: Code): void {
  const names = context.names;
  const record = names.fresh("record", context.value, true);
  const keys = names.fresh("keys", context.value, true);
  const has = (name: string, literal = stringLiteral(name)) =>
    `Object.prototype.hasOwnProperty.call(${record}, ${literal})`;
  let body = new Code();
  const properties = isJsonObject(schema["properties"]) ? schema["properties"] : {};
  const propertyNames = Object.keys(properties);

  // Defaults first, so that required sees them (as in ajv).
  // A property that `required` or a default guarantees needs no presence test later.
  const guaranteed = new Set<string>();
  if (context.defaults) {
    for (const name of propertyNames) {
      const sub = properties[name];
      if (!hasDefault(sub, emitter.dialect)) continue;
      body.line(`if (!${has(name)}) ${assignProperty(record, name, inlineLiteral(sub["default"]))}`, [record]);
      guaranteed.add(name);
    }
  }

  const required = Array.isArray(schema["required"])
    ? schema["required"].filter((n): n is string => typeof n === "string")
    : [];
  for (const name of required) {
    if (guaranteed.has(name)) continue; // filled from its default just above
    emitter.failIf(body, context, `!${has(name)}`, stringLiteral(`must have required property '${name}'`), [record]);
    guaranteed.add(name);
  }

  // The rest sees the keys after defaults were filled; they are listed only if needed.
  const head = body;
  body = new Code();

  emitCountBounds(
    emitter,
    schema["maxProperties"],
    schema["minProperties"],
    `${keys}.length`,
    keys,
    "properties",
    context,
    body,
  );

  // dependentRequired, and the array form of draft-07 dependencies.
  const { dependencyLists, dependencySchemas } = dependenciesOf(schema);
  for (const [name, dependents] of dependencyLists) {
    const checks = new Code();
    for (const dependent of dependents) {
      if (typeof dependent !== "string") continue;
      const message = stringLiteral(`must have property '${dependent}' when property '${name}' is present`);
      emitter.failIf(checks, context, `!${has(dependent)}`, message, [record]);
    }
    if (!checks.isEmpty) body.block(`if (${has(name)})`, checks, [record]);
  }

  if (hasOwn(schema, "propertyNames")) emitPropertyNames(emitter, schema["propertyNames"], keys, context, body);

  for (const name of propertyNames) {
    const path = [...context.path, { kind: "static", token: name } as const];
    const literal = stringLiteral(name);
    const hint = propertyNameHint(name);
    const checks = emitter.emitForNewValue(properties[name], record, literal, hint, path, context, context.defaults);
    if (checks.isEmpty) continue;
    if (guaranteed.has(name)) body.append(checks);
    else body.block(`if (${has(name, literal)})`, checks, [record]);
  }

  emitOtherProperties(emitter, schema, propertyNames, record, keys, context, body);

  // dependentSchemas, and the schema form of draft-07 dependencies: they apply to this
  // same object when the property is present.
  for (const [name, dependency] of dependencySchemas) {
    const checks = new Code();
    emitter.emitSchema(dependency, within(context, { defaults: false }), checks);
    if (!checks.isEmpty) body.block(`if (${has(name)})`, checks, [record]);
  }

  if (head.uses(record) || body.uses(record) || body.uses(keys)) {
    out.line(`const ${record} = ${context.value} as Record<string, unknown>;`, [context.value]);
  }
  out.append(head);
  // Object.keys, not for…in: it lists only own properties, including a JSON "__proto__" key.
  if (body.uses(keys)) out.line(`const ${keys} = Object.keys(${record});`, [record]);
  out.append(body);
}

/** The dependencies of the schema's properties: lists of names that must be present too, and schemas that then apply. */
function dependenciesOf(schema: JsonObject): {
  dependencyLists: Array<[string, readonly unknown[]]>;
  dependencySchemas: Array<[string, unknown]>;
} {
  const dependencyLists: Array<[string, readonly unknown[]]> = [];
  const dependencySchemas: Array<[string, unknown]> = [];
  for (const keyword of ["dependentRequired", "dependencies", "dependentSchemas"]) {
    const map = schema[keyword];
    if (!isJsonObject(map)) continue;
    for (const name of Object.keys(map)) {
      const dependency = map[name];
      if (Array.isArray(dependency)) dependencyLists.push([name, dependency]);
      else dependencySchemas.push([name, dependency]);
    }
  }
  return { dependencyLists, dependencySchemas };
}

function emitPropertyNames(emitter: SchemaEmitter, schema: unknown, keys: string, context: Context, out: Code): void {
  const key = context.names.fresh("key", context.value);
  const label = context.names.fresh("name");
  const attempt = new Code();
  // The key is a string, so the name schema starts out knowing that.
  emitter.emitSchema(
    schema,
    within(context, { value: key, types: STRING, mode: { kind: "break", label }, defaults: false }),
    attempt,
  );
  if (!attempt.uses(label)) return; // every name is valid
  const loopBody = new Code();
  if (!attempt.terminated) {
    // name: { ...checks (break when the name is invalid); continue } fail
    attempt.end("continue;");
    loopBody.labeled(label, attempt);
  }
  emitter.failAlways(loopBody, context, `"property name '" + ${key} + "' must be valid"`);
  out.block(`for (const ${key} of ${keys})`, loopBody, [keys]);
}

/** patternProperties and additionalProperties, in one pass over the keys. */
function emitOtherProperties(
  emitter: SchemaEmitter,
  schema: JsonObject,
  declared: readonly string[],
  record: string,
  keys: string,
  context: Context,
  out: Code,
): void {
  if (!hasOwn(schema, "patternProperties") && !hasOwn(schema, "additionalProperties")) return;
  const key = context.names.fresh("key", context.value);
  const keyPath = [...context.path, { kind: "key", variable: key } as const];
  const patternProperties = isJsonObject(schema["patternProperties"]) ? schema["patternProperties"] : {};
  const patterns = Object.keys(patternProperties).map((pattern) => {
    const checks = emitter.emitForNewValue(
      patternProperties[pattern],
      record,
      key,
      "property",
      keyPath,
      context,
      false,
    );
    return {
      regExp: emitter.scope.regExpConstant(pattern, context.value === "value" ? "key" : `${context.value}Key`),
      checks,
    };
  });

  const additionalChecks = new Code();
  const additional = hasOwn(schema, "additionalProperties") ? schema["additionalProperties"] : true;
  if (additional === false) {
    emitter.failAlways(additionalChecks, context, `"must NOT have additional property '" + ${key} + "'"`);
  } else {
    additionalChecks.append(emitter.emitForNewValue(additional, record, key, "property", keyPath, context, false));
  }

  const loopBody = new Code();
  const matchedFlag = context.names.fresh("matchedPattern");
  // A pattern with checks records its match in a flag so additionalProperties need not test it again.
  const useFlag = !additionalChecks.isEmpty && patterns.some((p) => !p.checks.isEmpty);
  if (useFlag) loopBody.line(`let ${matchedFlag} = false;`);
  for (const { regExp, checks } of patterns) {
    if (checks.isEmpty) continue;
    const withFlag = new Code();
    if (useFlag) withFlag.line(`${matchedFlag} = true;`);
    withFlag.append(checks);
    loopBody.block(`if (${regExp}.test(${key}))`, withFlag, [regExp]);
  }
  if (!additionalChecks.isEmpty) {
    const isAdditional: string[] = [];
    const uses: string[] = [];
    if (useFlag) isAdditional.push(`!${matchedFlag}`);
    if (declared.length > 6) {
      const set = emitter.scope.setConstant(
        "names",
        "string",
        declared.map((name) => stringLiteral(name)),
        context.value,
      );
      isAdditional.push(`!${set}.has(${key})`);
      uses.push(set);
    } else {
      for (const name of declared) isAdditional.push(`${key} !== ${stringLiteral(name)}`);
    }
    for (const { regExp, checks } of patterns) {
      if (useFlag && !checks.isEmpty) continue;
      isAdditional.push(`!${regExp}.test(${key})`);
      uses.push(regExp);
    }
    if (isAdditional.length === 0) loopBody.append(additionalChecks);
    else loopBody.block(`if (${isAdditional.join(" && ")})`, additionalChecks, uses);
  }
  if (loopBody.isEmpty) return;
  out.block(`for (const ${key} of ${keys})`, loopBody, [keys]);
}

/** `record["name"] = value;`, except for "__proto__", where plain assignment would replace the prototype. */
function assignProperty(record: string, name: string, valueExpression: string): string {
  if (name === "__proto__") {
    return `Object.defineProperty(${record}, "__proto__", { value: ${valueExpression}, enumerable: true, configurable: true, writable: true });`;
  }
  return `${record}[${stringLiteral(name)}] = ${valueExpression};`;
}
