// The JSON types a value may still have at a point of the generated code, as a bit set,
// and the keyword families that constrain only one type (numbers, strings, arrays,
// objects): the compiler narrows the set as checks pass and writes a family's keywords
// behind a type guard only when the value may be of another type.
import type { JsonObject } from "../../validate/schema-check.js";

// "number" is INTEGER | FRACTION, so `type: "integer"` narrows precisely.
export const NULL = 1;
export const BOOLEAN = 2;
export const OBJECT = 4;
export const ARRAY = 8;
export const STRING = 16;
export const INTEGER = 32;
export const FRACTION = 64;
export const NUMBER = INTEGER | FRACTION;
export const ANY = NULL | BOOLEAN | OBJECT | ARRAY | STRING | NUMBER;

const typeNameMasks = new Map([
  ["null", NULL],
  ["boolean", BOOLEAN],
  ["object", OBJECT],
  ["array", ARRAY],
  ["string", STRING],
  ["integer", INTEGER],
]);

/** The types a `type` keyword (one name or a list of names) allows. */
export function typeMask(type: string | readonly unknown[]): number {
  if (typeof type === "string") return typeNameMasks.get(type) ?? NUMBER;
  return type.reduce((mask: number, name) => mask | (typeNameMasks.get(String(name)) ?? NUMBER), 0);
}

/** The type of a JSON value (for enum/const members). */
export function valueMask(value: unknown): number {
  if (value === null) return NULL;
  if (Array.isArray(value)) return ARRAY;
  switch (typeof value) {
    case "boolean":
      return BOOLEAN;
    case "string":
      return STRING;
    case "number":
      return Number.isInteger(value) ? INTEGER : FRACTION;
    default:
      return OBJECT;
  }
}

/**
 * A condition that is true when `value` is NOT of any type in `allowed`. Written with
 * typeof/Array.isArray so TypeScript narrows the value after the check.
 */
export function notOfTypes(value: string, allowed: number): string {
  const parts: string[] = [];
  if (allowed & OBJECT) {
    // typeof null and typeof [] are "object" too.
    if (allowed & NULL && allowed & ARRAY) parts.push(`typeof ${value} !== "object"`);
    else if (allowed & ARRAY) parts.push(`typeof ${value} !== "object" || ${value} === null`);
    else if (allowed & NULL) parts.push(`typeof ${value} !== "object" || Array.isArray(${value})`);
    else parts.push(`typeof ${value} !== "object" || ${value} === null || Array.isArray(${value})`);
  } else {
    if (allowed & ARRAY) parts.push(`!Array.isArray(${value})`);
    if (allowed & NULL) parts.push(`${value} !== null`);
  }
  if (allowed & BOOLEAN) parts.push(`typeof ${value} !== "boolean"`);
  if (allowed & STRING) parts.push(`typeof ${value} !== "string"`);
  if ((allowed & NUMBER) === NUMBER) parts.push(`typeof ${value} !== "number"`);
  else if (allowed & INTEGER) parts.push(`typeof ${value} !== "number" || !Number.isInteger(${value})`);
  if (parts.length === 1) return parts[0]!;
  return parts.map((part) => (part.includes("||") ? `(${part})` : part)).join(" && ");
}

/** Guard for a keyword family when the value may also be of other types. */
export function familyGuard(value: string, family: number, possible: number): string {
  switch (family) {
    case STRING:
      return `typeof ${value} === "string"`;
    case NUMBER:
      return `typeof ${value} === "number"`;
    case ARRAY:
      return `Array.isArray(${value})`;
    default: {
      // Drop the null/array tests when the value cannot be null/an array here.
      let guard = `typeof ${value} === "object"`;
      if (possible & NULL) guard += ` && ${value} !== null`;
      if (possible & ARRAY) guard += ` && !Array.isArray(${value})`;
      return guard;
    }
  }
}

/** Item types for which uniqueItems may compare with a Map (SameValueZero equals deepEqual on them). */
export const SCALAR = NULL | BOOLEAN | STRING | NUMBER;

/** The keywords of each type-specific family; a schema without any of them emits no guard for it. */
const numberKeywords = ["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "multipleOf"];
const stringKeywords = ["maxLength", "minLength", "pattern"];
const arrayKeywords = ["maxItems", "minItems", "items", "prefixItems", "additionalItems", "uniqueItems", "contains"];
const objectKeywords = [
  "properties",
  "required",
  "maxProperties",
  "minProperties",
  "dependentRequired",
  "dependencies",
  "dependentSchemas",
  "propertyNames",
  "patternProperties",
  "additionalProperties",
];

const familyOfKeyword = new Map<string, number>([
  ...numberKeywords.map((keyword) => [keyword, NUMBER] as const),
  ...stringKeywords.map((keyword) => [keyword, STRING] as const),
  ...arrayKeywords.map((keyword) => [keyword, ARRAY] as const),
  ...objectKeywords.map((keyword) => [keyword, OBJECT] as const),
]);

/**
 * The keyword families (NUMBER, STRING, ARRAY, OBJECT) the schema has keywords of, found
 * in one pass over its own keys (a number keyword counts only with a number value).
 */
export function keywordFamilies(schema: JsonObject): number {
  let families = 0;
  for (const key of Object.keys(schema)) {
    const family = familyOfKeyword.get(key);
    if (family !== undefined && (family !== NUMBER || typeof schema[key] === "number")) families |= family;
  }
  return families;
}
