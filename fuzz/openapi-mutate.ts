// Mutations of OpenAPI documents for `npm run fuzz:openapi` (fuzz/openapi.ts): what a careless
// or hostile API description holds. Each works on the parsed document (Swagger 2.0 or OpenAPI
// 3.x); `mangleYaml` then slips into the text. Nothing here runs the importer.
import type { Rng } from "./generate.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const pointerToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** Names an API description should not break an importer with. */
const hostileNames = [
  "",
  " ",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "class",
  "delete",
  "default",
  "new",
  "await",
  "enum",
  "function",
  "undefined",
  "NaN",
  "body",
  "args",
  "ctx",
  "signal",
  "0",
  "1abc",
  "a b",
  "a-b",
  "a.b",
  "a/b",
  "a~b",
  "a%20b",
  "{x}",
  "${x}",
  "*/",
  "`",
  "'",
  '"',
  "\\",
  "\u2028",
  "日本語",
  "ümlaut",
  "😀",
  "\ud800",
  "\u0000",
  "x".repeat(200),
  "A".repeat(3000),
  "getPet",
  "get_pet",
  "GetPet",
  "listPets",
  "list-pets",
];
const wrongValues: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 64,
  "",
  "x",
  "string",
  [],
  [null],
  ["x"],
  {},
  { $ref: "#" },
  { type: "object" },
];
const hugeNumbers = [0, -1, -0.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 64, 1e-300, 4294967296, -2147483649];
const badPatterns = [
  "[",
  "(",
  "a{2,1}",
  "(?<n>a)(?<n>b)",
  "\\p{Nope}",
  "\\",
  "*",
  "(?=a)b",
  "[z-a]",
  "\\k<x>",
  "\\u{110000}",
];

/** Every container in `value` with the key of each child and its JSON pointer. */
interface Place {
  readonly parent: Json[] | JsonObject;
  readonly key: string | number;
  readonly pointer: string;
}
export function places(value: Json, pointer = "", into: Place[] = []): Place[] {
  if (into.length > 20_000) return into;
  if (Array.isArray(value))
    value.forEach((child, i) => {
      into.push({ parent: value, key: i, pointer: `${pointer}/${i}` });
      places(child, `${pointer}/${i}`, into);
    });
  else if (isObject(value))
    for (const key of Object.keys(value)) {
      const at = `${pointer}/${pointerToken(key)}`;
      into.push({ parent: value, key, pointer: at });
      places(value[key]!, at, into);
    }
  return into;
}
const get = (p: Place) => (p.parent as Record<string | number, Json>)[p.key]!;
const set = (p: Place, value: Json) => ((p.parent as Record<string | number, Json>)[p.key] = value);

/** The operations of a document: each with its path item and pointer. */
function operations(doc: JsonObject): { path: string; method: string; item: JsonObject; op: JsonObject }[] {
  const found: { path: string; method: string; item: JsonObject; op: JsonObject }[] = [];
  if (!isObject(doc.paths)) return found;
  for (const [path, item] of Object.entries(doc.paths))
    if (isObject(item))
      for (const method of methods) if (isObject(item[method])) found.push({ path, method, item, op: item[method] });
  return found;
}

/** Places holding a schema (by the key that holds it), to mutate schema keywords. */
function schemaPlaces(doc: JsonObject): Place[] {
  return places(doc).filter((p) => {
    const parentKey = String(p.pointer.split("/").at(-2) ?? "");
    return (
      isObject(get(p)) &&
      (p.key === "schema" ||
        p.key === "items" ||
        p.key === "additionalProperties" ||
        parentKey === "properties" ||
        parentKey === "schemas" ||
        parentKey === "definitions" ||
        parentKey === "allOf" ||
        parentKey === "anyOf" ||
        parentKey === "oneOf")
    );
  });
}

/** The component maps of the document's version: where `$ref`s to reusable parts point. */
function componentMap(doc: JsonObject, kind: "schemas" | "parameters" | "responses" | "requestBodies"): string {
  if (typeof doc.swagger === "string" || doc.swagger !== undefined)
    return kind === "schemas" ? "definitions" : kind === "requestBodies" ? "parameters" : kind;
  return `components/${kind}`;
}
function ensureMap(doc: JsonObject, path: string): JsonObject {
  let at: JsonObject = doc;
  for (const key of path.split("/")) {
    if (!isObject(at[key])) at[key] = {};
    at = at[key];
  }
  return at;
}

/** A `$ref` that names something the importer must refuse or work around. */
function hostileRef(rng: Rng, doc: JsonObject, own: string): string {
  const schemas = componentMap(doc, "schemas");
  return rng.pick([
    `#/${schemas}/Nope`,
    `#${own}`,
    "#",
    "#/",
    "#/info",
    "#/paths",
    "#/servers/0",
    "#/info/title",
    `#/${schemas}`,
    "#/paths/~1pets/get",
    "#/components/schemas/Pet/properties",
    "#components/schemas/Pet",
    "#/%ZZ",
    "#/a~2b",
    "#/components/schemas/%F0%9F%98%80",
    "",
    "./missing.yaml",
    "./missing.yaml#/x",
    "parts.yaml#/nope",
    "./parts.yaml#/schemas/Node",
    "../../../../../../../../etc/hostname",
    "/etc/hostname",
    "/dev/zero",
    "http://127.0.0.1:9/x.yaml",
    "file:///etc/passwd",
    "urn:x",
    "#/x-ext",
  ]);
}

type Mutation = (rng: Rng, doc: JsonObject) => void;

/** Delete, duplicate or retype any node. */
const structural: Mutation = (rng, doc) => {
  const all = places(doc);
  if (all.length === 0) return;
  const p = rng.pick(all);
  switch (rng.int(4)) {
    case 0:
      if (Array.isArray(p.parent)) p.parent.splice(p.key as number, 1);
      else delete p.parent[p.key as string];
      break;
    case 1:
      if (Array.isArray(p.parent)) p.parent.push(structuredClone(get(p)));
      else p.parent[`${String(p.key)}${rng.pick(["", "2", "_copy"])}${rng.pick(["", "x"])}`] = structuredClone(get(p));
      break;
    case 2:
      set(p, structuredClone(rng.pick(wrongValues)));
      break;
    default: {
      // a subtree moved elsewhere (a parameter where a schema stood, a response as a path item …)
      const other = rng.pick(all);
      set(p, structuredClone(get(other)));
    }
  }
};

/** Wrong types for the fields the importer reads. */
const wrongTypes: Mutation = (rng, doc) => {
  const ops = operations(doc);
  const value = () => structuredClone(rng.pick(wrongValues));
  const op = ops.length > 0 ? rng.pick(ops) : undefined;
  const params = op && Array.isArray(op.op.parameters) ? op.op.parameters.filter(isObject) : [];
  const param = params.length > 0 ? rng.pick(params) : undefined;
  switch (rng.int(12)) {
    case 0:
      doc.paths = value();
      break;
    case 1:
      if (op) op.op.parameters = value();
      break;
    case 2:
      if (param) param.schema = value();
      break;
    case 3:
      if (param) param.style = rng.pick([...wrongValues, "matrix", "label", "deepObject", "spaceDelimited", "nope"]);
      break;
    case 4:
      if (param) param.in = rng.pick([...wrongValues, "body", "formData", "path", "query", "header", "cookie", "Path"]);
      break;
    case 5:
      if (param) param.required = value();
      break;
    case 6:
      if (op) op.op.responses = value();
      break;
    case 7:
      if (op) op.op.requestBody = value();
      break;
    case 8:
      doc[rng.pick(["info", "servers", "components", "security", "definitions", "tags", "host", "basePath"])] = value();
      break;
    case 9:
      if (op) op.op[rng.pick(["tags", "operationId", "summary", "description", "deprecated", "security"])] = value();
      break;
    case 10:
      if (param)
        param[rng.pick(["explode", "allowReserved", "content", "name", "items", "collectionFormat"])] = value();
      break;
    default:
      if (op) op.item[rng.pick(["parameters", "servers", "$ref", "summary"])] = value();
  }
};

/** Numbers out of range where schemas and documents hold numbers. */
const numbers: Mutation = (rng, doc) => {
  const schemas = schemaPlaces(doc);
  if (schemas.length === 0) return;
  const schema = get(rng.pick(schemas)) as JsonObject;
  const keyword = rng.pick([
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "default",
  ]);
  schema[keyword] = rng.chance(0.8) ? rng.pick(hugeNumbers) : rng.pick([true, "1", null]);
  if (rng.chance(0.3)) schema.exclusiveMinimum = rng.pick([true, false, 5]);
};

/** `$ref`s that dangle, point at themselves, go round in cycles, name no schema or leave the document. */
const refs: Mutation = (rng, doc) => {
  const ops = operations(doc);
  const op = ops.length > 0 ? rng.pick(ops) : undefined;
  switch (rng.int(6)) {
    case 0: {
      // any schema, parameter, response, body or path item replaced by a hostile $ref
      const candidates = places(doc).filter((p) => isObject(get(p)));
      if (candidates.length === 0) return;
      const p = rng.pick(candidates);
      set(p, { $ref: hostileRef(rng, doc, p.pointer) });
      break;
    }
    case 1: {
      // a cycle of two (or one) components of a kind, used by an operation
      const kind = rng.pick(["schemas", "parameters", "responses", "requestBodies"] as const);
      const where = componentMap(doc, kind);
      const map = ensureMap(doc, where);
      const self = rng.chance(0.3);
      map.CycleA = { $ref: `#/${where}/${self ? "CycleA" : "CycleB"}` };
      if (!self) map.CycleB = { $ref: `#/${where}/CycleA` };
      if (!op) return;
      const ref = { $ref: `#/${where}/CycleA` };
      if (kind === "parameters") op.op.parameters = [...(Array.isArray(op.op.parameters) ? op.op.parameters : []), ref];
      else if (kind === "responses")
        op.op.responses = { ...(isObject(op.op.responses) ? op.op.responses : {}), "200": ref };
      else if (kind === "requestBodies") op.op.requestBody = ref;
      else op.op.responses = { "200": { description: "x", content: { "application/json": { schema: ref } } } };
      break;
    }
    case 2: {
      // a path item that refers to itself or to another
      if (!op || !isObject(doc.paths)) return;
      const other = rng.pick(Object.keys(doc.paths));
      doc.paths[op.path] = { $ref: `#/paths/${pointerToken(rng.chance(0.5) ? op.path : other)}` };
      break;
    }
    case 3: {
      // a schema that refers to itself through properties, items or allOf (legitimately recursive)
      const schemas = ensureMap(doc, componentMap(doc, "schemas"));
      const name = rng.pick(Object.keys(schemas).concat("Tree"));
      const ref = `#/${componentMap(doc, "schemas")}/${name}`;
      schemas[name] = rng.pick<Json>([
        { type: "object", properties: { child: { $ref: ref }, list: { type: "array", items: { $ref: ref } } } },
        { allOf: [{ $ref: ref }] },
        { anyOf: [{ $ref: ref }, { type: "string" }] },
        { type: "array", items: { $ref: ref } },
        { $ref: ref },
        { type: "object", additionalProperties: { $ref: ref }, required: ["child"] },
      ]);
      if (op)
        op.op.responses = { "200": { description: "x", content: { "application/json": { schema: { $ref: ref } } } } };
      break;
    }
    case 4: {
      // an operation's parameter, body or response as a hostile $ref
      if (!op) return;
      const ref = { $ref: hostileRef(rng, doc, `/paths/${pointerToken(op.path)}/${op.method}`) };
      const target = rng.int(3);
      if (target === 0) op.op.parameters = [ref];
      else if (target === 1) op.op.requestBody = ref;
      else op.op.responses = { "200": ref };
      break;
    }
    default: {
      // $ref beside other keywords, or a $ref that is not a string
      const schemas = schemaPlaces(doc);
      if (schemas.length === 0) return;
      const schema = get(rng.pick(schemas)) as JsonObject;
      schema.$ref = rng.chance(0.5) ? rng.pick<Json>([1, null, {}, [], true]) : hostileRef(rng, doc, "");
      if (rng.chance(0.5)) schema.nullable = true;
    }
  }
};

/** operationIds and parameter names that collide, are empty, unicode, reserved or long. */
const names: Mutation = (rng, doc) => {
  const ops = operations(doc);
  if (ops.length === 0) return;
  const op = rng.pick(ops);
  switch (rng.int(5)) {
    case 0:
      op.op.operationId = rng.pick(hostileNames);
      break;
    case 1: {
      // two operations with the same id, or ids that differ only in case or separators
      const other = rng.pick(ops);
      const id = typeof other.op.operationId === "string" ? other.op.operationId : rng.pick(hostileNames);
      op.op.operationId = rng.pick([
        id,
        id.toUpperCase(),
        id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        `${id}-`,
      ]);
      break;
    }
    case 2: {
      const params = Array.isArray(op.op.parameters) ? op.op.parameters.filter(isObject) : [];
      if (params.length > 0) rng.pick(params).name = rng.pick(hostileNames);
      else
        op.op.parameters = [
          { name: rng.pick(hostileNames), in: rng.pick(["query", "header", "cookie"]), schema: { type: "string" } },
        ];
      break;
    }
    case 3: {
      // the same name in several locations, and as a body property
      const name = rng.pick(hostileNames);
      op.op.parameters = ["query", "header", "cookie", rng.pick(["query", "header"])].map((location) => ({
        name,
        in: location,
        schema: { type: "string" },
      }));
      if (!doc.swagger && op.method !== "get")
        op.op.requestBody = {
          content: {
            "application/json": {
              schema: { type: "object", properties: { [name]: { type: "string" }, body: { type: "integer" } } },
            },
          },
        };
      break;
    }
    default: {
      // a schema property with a hostile name, required
      const schemas = schemaPlaces(doc);
      if (schemas.length === 0) return;
      const schema = get(rng.pick(schemas)) as JsonObject;
      const name = rng.pick(hostileNames);
      schema.type = "object";
      schema.properties = {
        ...(isObject(schema.properties) ? schema.properties : {}),
        [name]: { type: rng.pick(["string", "integer", "object"]) },
      };
      if (rng.chance(0.5)) schema.required = [name, ...(Array.isArray(schema.required) ? schema.required : [])];
    }
  }
};

/** Path templates with unbalanced braces, undeclared parameters, odd segments. */
const paths: Mutation = (rng, doc) => {
  if (!isObject(doc.paths)) return;
  const keys = Object.keys(doc.paths);
  if (keys.length === 0) return;
  const key = rng.pick(keys);
  const item = doc.paths[key]!;
  const next = rng.pick([
    `${key}/{id`,
    `${key}/id}`,
    `${key}/{}`,
    `${key}/{undeclared}`,
    `${key}/{a}{b}`,
    `${key}/{id}/{id}`,
    key.replace(/^\//, ""),
    "",
    "/",
    "//",
    `${key}?q=1`,
    `${key}#frag`,
    `${key}/{__proto__}`,
    `${key}/{${"p".repeat(300)}}`,
    `${key}/ü/{ü}`,
    `${key}/%7Bx%7D`,
    `${key}/{x.y}`,
    `${key}/{x*}`,
    `/{+path}`,
  ]);
  delete doc.paths[key];
  doc.paths[next] = item;
  // sometimes also drop the declarations of its path parameters
  if (rng.chance(0.3) && isObject(item))
    for (const method of methods) {
      const op = item[method];
      if (isObject(op) && Array.isArray(op.parameters))
        op.parameters = op.parameters.filter((p) => !(isObject(p) && p.in === "path"));
    }
};

/** Schema keywords a converter and a validator compiler trip on. */
const schemaKeywords: Mutation = (rng, doc) => {
  const schemas = schemaPlaces(doc);
  if (schemas.length === 0) return;
  const place = rng.pick(schemas);
  const schema = get(place) as JsonObject;
  switch (rng.int(12)) {
    case 0:
      schema.type = "string";
      schema.pattern = rng.pick(badPatterns);
      break;
    case 1:
      schema.enum = rng.pick<Json>([[], [null], [1, "1", true, null, {}], ["a", "a"], "x", [[]]]);
      break;
    case 2:
      schema.type = rng.pick<Json>([
        ["string", "null"],
        ["integer", "string", "object", "array"],
        [],
        ["nope"],
        "file",
        "nope",
        "null",
        5,
      ]);
      break;
    case 3: {
      // deep nesting
      let deep: Json = { type: "string" };
      const depth = rng.pick([50, 200, 1000]);
      for (let i = 0; i < depth; i++)
        deep = rng.chance(0.5) ? { type: "object", properties: { a: deep } } : { type: "array", items: deep };
      set(place, deep);
      break;
    }
    case 4: {
      // a long allOf chain of components, each referring to the next
      const where = componentMap(doc, "schemas");
      const map = ensureMap(doc, where);
      const length = rng.pick([20, 100, 400]);
      for (let i = 0; i < length; i++)
        map[`Chain${i}`] = {
          allOf: [
            i + 1 < length ? { $ref: `#/${where}/Chain${i + 1}` } : { type: "object" },
            { properties: { [`p${i}`]: { type: "integer" } } },
          ],
        };
      set(place, { $ref: `#/${where}/Chain0` });
      break;
    }
    case 5:
      schema.required = rng.pick<Json>([[], "x", [1], ["nope"], [""], ["a", "a"], true]);
      break;
    case 6:
      schema.additionalProperties = rng.pick<Json>(["x", 1, null, [], { $ref: "#" }, false]);
      break;
    case 7:
      schema.format = rng.pick(["date-time", "byte", "binary", "int64", "uuid", "nope", "", "regex", "uri-template"]);
      schema.default = rng.pick<Json>([1, "x", null, [], {}, 1e308]);
      break;
    case 8:
      schema.discriminator = rng.pick<Json>([
        { propertyName: "kind", mapping: { a: "#/components/schemas/Nope", b: "Nope" } },
        { propertyName: 5 },
        "kind",
      ]);
      schema.oneOf = rng.pick<Json>([[], [{ type: "string" }], "x", [{ $ref: "#/components/schemas/Nope" }]]);
      break;
    case 9:
      schema.nullable = rng.pick<Json>([true, "yes"]);
      if (rng.chance(0.5)) delete schema.type;
      if (rng.chance(0.5)) schema.readOnly = true;
      if (rng.chance(0.5)) schema.writeOnly = true;
      break;
    case 10:
      schema.items = rng.pick<Json>([[{ type: "string" }], "x", null, true, false]);
      if (rng.chance(0.5)) schema.type = "array";
      break;
    default: {
      const keyword = rng.pick([
        "const",
        "examples",
        "example",
        "not",
        "if",
        "patternProperties",
        "prefixItems",
        "$defs",
        "$id",
        "$schema",
        "$anchor",
        "contentEncoding",
        "x-nullable",
      ]);
      schema[keyword] = structuredClone(rng.pick(wrongValues));
    }
  }
};

/** Media types, status codes and content maps. */
const media: Mutation = (rng, doc) => {
  const ops = operations(doc);
  if (ops.length === 0) return;
  const { op } = rng.pick(ops);
  const type = rng.pick([
    "application/json; charset=utf-8",
    "application/vnd.api+json",
    "*/*",
    "",
    "application/xml",
    "multipart/form-data",
    "application/x-www-form-urlencoded",
    "text/plain",
    "application/octet-stream",
    "image/png",
    "APPLICATION/JSON",
    "application/json;;",
  ]);
  const schema: Json = rng.pick<Json>([
    { type: "string" },
    { type: "array", items: { type: "string" } },
    true,
    {},
    { type: "object", properties: { file: { type: "string", format: "binary" } } },
  ]);
  if (rng.chance(0.5) && !doc.swagger) op.requestBody = { required: rng.chance(0.5), content: { [type]: { schema } } };
  else
    op.responses = {
      [rng.pick(["200", "2XX", "2xx", "204", "299", "default", "200.0", "abc", "20"])]: {
        description: "x",
        ...(doc.swagger ? { schema } : { content: { [type]: { schema } } }),
      },
    };
  if (doc.swagger && rng.chance(0.5)) op[rng.pick(["consumes", "produces"])] = rng.pick<Json>([[type], type, [], null]);
};

/** Security schemes and servers, wrong in every way a document can be. */
const securityAndServers: Mutation = (rng, doc) => {
  if (rng.chance(0.5)) {
    const schemes = doc.swagger ? ensureMap(doc, "securityDefinitions") : ensureMap(doc, "components/securitySchemes");
    const name = rng.pick(["k", "__proto__", "", "a b", "日本", "x".repeat(300)]);
    schemes[name] = rng.pick<Json>([
      { type: "apiKey", in: "nope", name: "k" },
      { type: "apiKey", in: "header" },
      { type: "apiKey", in: "query", name: "" },
      { type: "http", scheme: 5 },
      { type: "http", scheme: "digest" },
      { type: "oauth2", flows: "x" },
      { type: "oauth2", flow: "application", tokenUrl: "/t", scopes: {} },
      { type: "basic" },
      { type: "mutualTLS" },
      { $ref: "#/components/securitySchemes/k" },
      "x",
    ]);
    doc.security = rng.pick<Json>([[{ [name]: [] }], [{ missing: [] }], [{}], "x", [[]]]);
  } else if (!doc.swagger) {
    doc.servers = rng.pick<Json>([
      [{ url: "{scheme}://x" }],
      [{ url: "https://{host" }],
      [{ url: "/relative/{v}", variables: { v: { default: 5 } } }],
      [{ url: 5 }],
      [{}],
      [],
      [{ url: "https://x/{v}", variables: { v: { enum: [] } } }],
      [{ url: "javascript:alert(1)" }],
      [{ url: "https://example.com/${x}`*/" }],
    ]);
  } else {
    doc.host = rng.pick<Json>(["", "a b", 5, "x:99999", "{host}"]);
    doc.basePath = rng.pick<Json>(["", "noslash", 5, "/{v}"]);
    doc.schemes = rng.pick<Json>([["ftp"], "https", [], [5]]);
  }
};

/** The version fields: another version, a wrong type, both or neither. */
const version: Mutation = (rng, doc) => {
  const value = rng.pick<Json>([
    "2.0",
    "3.0.0",
    "3.0.3",
    "3.1.0",
    "3.1.1",
    "3.2.0",
    "3.0",
    "3.1",
    "3",
    "4.0.0",
    3.1,
    2,
    null,
    "",
    " 3.0.3",
    "3.0.3-rc1",
  ]);
  switch (rng.int(4)) {
    case 0:
      delete doc.openapi;
      delete doc.swagger;
      break;
    case 1:
      if (doc.swagger !== undefined) doc.swagger = value;
      else doc.openapi = value;
      break;
    case 2:
      // the other format's key: a Swagger 2.0 body read as OpenAPI 3, or both keys
      if (doc.swagger !== undefined) {
        if (rng.chance(0.5)) delete doc.swagger;
        doc.openapi = rng.pick(["3.0.3", "3.1.0"]);
      } else {
        if (rng.chance(0.5)) delete doc.openapi;
        doc.swagger = "2.0";
      }
      break;
    default:
      if (doc.swagger !== undefined) doc.swagger = rng.pick(["2.0", "2", "1.2", 2]);
      else doc.openapi = value;
  }
};

/** Swagger 2.0 parameters: body and formData parameters, collection formats. */
const swagger2: Mutation = (rng, doc) => {
  const ops = operations(doc);
  if (ops.length === 0) return;
  const { op } = rng.pick(ops);
  const params = Array.isArray(op.parameters) ? op.parameters : (op.parameters = []);
  params.push(
    rng.pick<Json>([
      { name: "body", in: "body", schema: { type: "string" } },
      { name: "payload", in: "body" },
      { name: "f", in: "formData", type: "file" },
      { name: "f", in: "formData", type: "string" },
      {
        name: "ids",
        in: "query",
        type: "array",
        items: { type: "integer" },
        collectionFormat: rng.pick(["csv", "ssv", "tsv", "pipes", "multi", "nope", 5]),
      },
      { name: "x", in: "query", type: "array" },
      { name: "x", in: "header", type: "object" },
      { name: "b", in: "body", schema: { $ref: "#/definitions/Nope" } },
    ]),
  );
};

const mutations: readonly [Mutation, number][] = [
  [structural, 3],
  [wrongTypes, 3],
  [numbers, 1],
  [refs, 3],
  [names, 2],
  [paths, 2],
  [schemaKeywords, 3],
  [media, 1],
  [securityAndServers, 1],
  [version, 1],
  [swagger2, 1],
];
const totalWeight = mutations.reduce((sum, [, weight]) => sum + weight, 0);

/** One to four mutations of the document (in place); the names of those applied. */
export function mutate(rng: Rng, doc: JsonObject): string[] {
  const applied: string[] = [];
  for (let n = 1 + rng.int(4); n > 0; n--) {
    let roll = rng.int(totalWeight);
    const [mutation] = mutations.find(([, weight]) => (roll -= weight) < 0)!;
    if (mutation === swagger2 && doc.swagger === undefined && rng.chance(0.7)) continue;
    mutation(rng, doc);
    applied.push(mutation.name);
  }
  return applied;
}

/** YAML slips: alias bombs, tabs, duplicate keys, a byte order mark, cut lines, tags. */
export function mangleYaml(rng: Rng, text: string): string {
  const lines = text.split("\n");
  const at = rng.int(lines.length);
  switch (rng.int(9)) {
    case 0: {
      // an exponential alias bomb ("billion laughs") under an extension key
      const width = rng.pick([5, 9, 12]);
      const depth = rng.pick([6, 9, 12]);
      const bomb = ["x-bomb:", `  l0: &l0 [${Array(width).fill('"lol"').join(", ")}]`];
      for (let i = 1; i < depth; i++)
        bomb.push(
          `  l${i}: &l${i} [${Array(width)
            .fill(`*l${i - 1}`)
            .join(", ")}]`,
        );
      // used where the importer looks: as a description or a schema's default
      return `${bomb.join("\n")}\n${text.replace(/^(\s+)description: .*$/m, `$1description: *l${depth - 1}`)}`;
    }
    case 1:
      lines[at] = `\t${lines[at]}`;
      break;
    case 2:
      // the same key twice
      lines.splice(at + 1, 0, lines[at]!);
      break;
    case 3:
      lines[at] = lines[at]!.slice(0, rng.int(lines[at]!.length + 1));
      break;
    case 4:
      lines[at] =
        `${lines[at]} ${rng.pick(["&a", "*a", "*nope", "!!binary", "!!js/function 'x'", "!!set", "<<: *a", "[", "{", "'", "|", ">-", "? x"])}`;
      break;
    case 5:
      // a merge key with an anchor defined earlier
      lines[at] = lines[at]!.replace(/: (\S)/, ": &m $1");
      lines.splice(at + 1 + rng.int(Math.max(1, lines.length - at)), 0, `${lines[at]!.match(/^\s*/)![0]}<<: *m`);
      break;
    case 6:
      return `${rng.pick(["%YAML 1.1\n---\n", "%YAML 1.2\n---\n", "---\n", "%TAG ! tag:x,2000:\n---\n"])}${text}${rng.chance(0.5) ? "\n---\nopenapi: 3.1.0\n" : ""}`;
    case 7:
      return `\ufeff${rng.chance(0.5) ? text.replaceAll("\n", "\r\n") : text}`;
    default:
      lines[at] = ` ${lines[at]}`;
  }
  return lines.join("\n");
}
