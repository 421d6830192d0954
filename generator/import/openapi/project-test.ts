// test/server.test.ts of an imported project (templates/import/server.test.ts.hbs), what its
// `npm test` runs: src/main.ts over stdio against a stand-in HTTP server in the test. What it
// calls is chosen here, from the imported tools: the first GET without a body whose path
// parameters are plain, whose credentials are read from the environment, and for which
// sample.ts finds arguments and an answer the tool's schemas accept (checked with ajv, so the
// test passes as written). The invalid call is an argument of a type its schema refuses,
// refused by the server before the API is called. In the catalog mode (`--tools catalog`) the
// same operations are chosen among those the catalog serves, found with find_operations and
// called through call_operation.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Ajv, Options } from "ajv";
import Handlebars from "handlebars";
import { codeLiteral, docLines, stringLiteral } from "../../emit/escape.js";
import { packageRoot } from "../../load/revisions.js";
import { camelCase, serverTypeBase } from "../../model/names.js";
import type { CatalogData } from "./catalog.js";
import { toolTypeBase, type ImportedTool, type ImportResult } from "./operations.js";
import type { SecuritySpec } from "./project/request.js";
import { sampleOf } from "./sample.js";

type Json = ReturnType<typeof sampleOf>;
const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A read-only call the test makes, and what the stand-in API sees and answers. */
interface ReadCall {
  readonly tool: ImportedTool;
  readonly args: Record<string, Json>;
  /** The environment variables of the credentials it needs. */
  readonly credentials: readonly string[];
  readonly route: string;
  readonly answer: { readonly type: string; readonly body: Json };
  /** structuredContent, or the text content, the tool answers with. */
  readonly result: { readonly structured: Json } | { readonly text: string };
}

/** A call whose arguments the tool's schema refuses. */
interface InvalidCall {
  readonly tool: ImportedTool;
  readonly args: Record<string, Json>;
  readonly why: string;
}

const require = createRequire(import.meta.url);

/** Whether `schema` accepts `value`: ajv (2020-12, formats not asserted, as mcp-gen's validators). */
function accepts(schema: unknown, value: unknown): boolean {
  const options: Options = { strict: false, validateFormats: false };
  const Ajv2020 = (require("ajv/dist/2020") as { default: new (options: Options) => Ajv }).default;
  try {
    return new Ajv2020(options).validate(schema as object, value) === true;
  } catch {
    return false; // a schema ajv cannot compile: choose another tool
  }
}

/** Credentials read from the environment as they are, with no token to fetch. */
type StaticCredentials = Exclude<SecuritySpec, { type: "clientCredentials" }>;

/** The environment variables of the first security alternative read from the environment alone. */
function credentialsOf(tool: ImportedTool, schemes: Readonly<Record<string, SecuritySpec>>): string[] | undefined {
  const alternatives = tool.operation.security.length === 0 ? [[]] : tool.operation.security;
  for (const alternative of alternatives) {
    const specs = alternative.map((name) => schemes[name]);
    // A token endpoint is more than the test's stand-in API answers: such alternatives are not chosen.
    if (specs.every((spec): spec is StaticCredentials => spec !== undefined && spec.type !== "clientCredentials"))
      return specs.flatMap((spec) => (spec.type === "basic" ? [spec.userEnv, spec.passwordEnv] : [spec.env]));
  }
  return undefined;
}

function readCall(tool: ImportedTool, result: ImportResult, basePath: string): ReadCall | undefined {
  const { operation } = tool;
  if (operation.method.toUpperCase() !== "GET" || operation.body !== undefined) return undefined;
  const credentials = credentialsOf(tool, result.credentials.schemes);
  const args = sampleOf(tool.input);
  if (credentials === undefined || !isObject(args) || !accepts(tool.input, args)) return undefined;
  let path = operation.path;
  for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
    const value = args[parameter.arg];
    if (parameter.style !== "simple" || !["string", "number", "boolean"].includes(typeof value)) return undefined;
    path = path.replaceAll(`{${parameter.name}}`, encodeURIComponent(String(value)));
  }
  const route = `GET ${basePath}${path}`;
  if (tool.output === undefined)
    return {
      tool,
      args,
      credentials,
      route,
      answer: { type: "text/plain", body: "an answer of the API" },
      result: { text: "an answer of the API" },
    };
  const structured = sampleOf(tool.output);
  if (!isObject(structured) || !accepts(tool.output, structured)) return undefined;
  const wrap = operation.output?.wrap;
  return {
    tool,
    args,
    credentials,
    route,
    answer: { type: "application/json", body: wrap === undefined ? structured : structured[wrap]! },
    result: { structured },
  };
}

/** Values of another type than a schema's, tried in turn. */
const wrongValues: readonly Json[] = [true, "example", 1.5, null, [], {}];
const jsonType = (value: Json) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`);

/** One argument of a type the tool's schema refuses (the read call's tool first), else an unknown one. */
function invalidCall(tools: readonly ImportedTool[]): InvalidCall | undefined {
  for (const tool of tools) {
    const valid = sampleOf(tool.input);
    if (!isObject(valid) || !accepts(tool.input, valid)) continue;
    const properties = isObject(tool.input) && isObject(tool.input.properties) ? tool.input.properties : {};
    for (const name of Object.keys(properties))
      for (const wrong of wrongValues) {
        const args = { ...valid, [name]: wrong };
        if (!accepts(tool.input, args))
          return { tool, args, why: `${JSON.stringify(name)} as ${jsonType(wrong)}, which its schema refuses` };
      }
    const args = { ...valid, not_an_argument: true };
    if (!accepts(tool.input, args)) return { tool, args, why: "an argument the tool does not declare" };
  }
  return undefined;
}

/** Text for a `//` comment: one line, nothing that ends or escapes it. */
const commentText = (text: string) => docLines(text).join(" ");

export function renderProjectTest(name: string, result: ImportResult, catalog?: CatalogData): string {
  const tools = catalog?.tools ?? result.tools;
  const basePath = new URL(result.serverUrl ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
  const read = tools.map((tool) => readCall(tool, result, basePath)).find((call) => call !== undefined);
  const invalid = invalidCall(read === undefined ? tools : [read.tool, ...tools]);
  const typeBase = serverTypeBase(name);
  /** The client call of `tool` with `args`: its own method, or call_operation with its id. */
  const call = (tool: ImportedTool, args: Record<string, Json>, cast = "") =>
    catalog === undefined
      ? `client.tools.${camelCase(tool.name)}(${codeLiteral(args, "  ")}${cast})`
      : `client.tools.callOperation({\n    id: ${stringLiteral(tool.name)},\n    arguments: ${codeLiteral(args, "    ")},\n  })`;
  const context = {
    name: commentText(name),
    typeBase,
    catalog: catalog !== undefined,
    toolCount: tools.length,
    basePath: basePath.replace(/[`\\$]/g, "\\$&"),
    credentials: (read?.credentials ?? []).map((env) => ({
      env,
      value: stringLiteral(`test-${env.toLowerCase().replace(/_/g, "-")}`),
    })),
    read: read !== undefined && {
      tool: commentText(read.tool.name),
      toolLiteral: stringLiteral(read.tool.name),
      title: stringLiteral(
        `${catalog === undefined ? read.tool.name : `call_operation of ${read.tool.name}`} sends ${read.route} and answers with what the API answered`,
      ),
      findTitle: stringLiteral(`find_operations finds ${read.tool.name} by its id`),
      method: stringLiteral(read.tool.operation.method.toUpperCase()),
      path: stringLiteral(read.tool.operation.path),
      call: call(read.tool, read.args),
      route: stringLiteral(read.route),
      routeText: commentText(read.route),
      answerType: stringLiteral(read.answer.type),
      answerBody: codeLiteral(read.answer.body),
      structured: "structured" in read.result ? codeLiteral(read.result.structured, "  ") : false,
      text: "text" in read.result ? stringLiteral(read.result.text) : false,
    },
    skipped: stringLiteral(
      "no GET operation without a body whose arguments and answer could be made up from its schemas (and whose credentials come from the environment): add a test for a tool of your own",
    ),
    invalid: invalid !== undefined && {
      tool: commentText(invalid.tool.name),
      title: stringLiteral(
        `${catalog === undefined ? invalid.tool.name : `call_operation of ${invalid.tool.name}`} with an invalid argument is refused before the API is called`,
      ),
      // The catalog's arguments are any object: only a tool's own method needs the cast.
      inputType: catalog === undefined && `${toolTypeBase(invalid.tool.name)}Input`,
      call: call(
        invalid.tool,
        invalid.args,
        catalog === undefined ? ` as unknown as ${toolTypeBase(invalid.tool.name)}Input` : "",
      ),
      refusal: stringLiteral(`Invalid arguments for operation ${invalid.tool.name}: `),
      why: commentText(invalid.why),
    },
  };
  const template = readFileSync(join(packageRoot(), "templates", "import", "server.test.ts.hbs"), "utf8");
  return `${Handlebars.create().compile(template, { noEscape: true, strict: true })(context).trimEnd()}\n`;
}
