// Bad input: broken manifests run through the real CLI, each with the exact
// `file:line:col` message(s) and exit code it must produce, and proof that nothing was
// written. Then the other half of the promise: hostile strings that are valid (comment
// terminators, template literal syntax, quotes, backslashes, U+2028/U+2029, "</script>",
// a "__proto__" property) generate code that compiles under strict settings and
// delivers every string byte for byte over a real session.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCliAsync, tempProject } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const fixtures = join(repoRoot, "test", "unit", "fixtures", "bad-manifests");

interface BadCase {
  readonly name: string;
  /** Text of mcp.yaml; use `manifest(...)` for the usual three-line head. */
  readonly manifest?: string;
  /** Other files of the project (referenced schemas), path → text. */
  readonly files?: Readonly<Record<string, string>>;
  /** CLI arguments; default `mcp.yaml --out out`. */
  readonly args?: readonly string[];
  /** Exact stderr, line by line. */
  readonly stderr: readonly string[];
  /** Default 1 (invalid input); 2 is a usage error. */
  readonly exit?: number;
}

/** A manifest whose body starts on line 4, after mcpgen, server and protocol (one revision keeps runs short). */
const manifest = (...body: string[]) =>
  ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', "protocol: 2025-06-18", ...body, ""].join("\n");

/** Every allowed top-level key, as the unknown-key message lists them. */
const topLevelKeys =
  "$schema, mcpgen, server, protocol, output, protocolSchemas, generate, lenientSchemas, tools, resources, resourceTemplates, prompts, auth, apps, elicitations, settings";
const revisions = "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05";

const cases: BadCase[] = [
  // ---------------------------------------------------------------- _meta
  {
    name: "_meta: keys against the specification's rule, a reserved prefix, keys a tool's ui sets, a revision without _meta",
    manifest: manifest(
      "tools:",
      "  echo:",
      "    ui: { html: page.html }",
      '    _meta: { "-x": 1, "a..b/x": 2, "tools.mcp.com/x": 3, "io.modelcontextprotocol/ui-ok": 4, "example.com/": 5, ui: 6 }',
      "resources:",
      "  index:",
      "    uri: notes://index",
      '    _meta: { "x y": true }',
    ),
    files: { "page.html": "<!doctype html><title>x</title>" },
    stderr: [
      'mcp.yaml:7:14: _meta key "-x" of tool "echo" is not a valid name: it must start and end with a letter or digit, with only letters, digits, `-`, `_` and `.` between',
      'mcp.yaml:7:23: _meta key "a..b/x" of tool "echo" has a malformed prefix: write dot-separated labels (a letter, then letters, digits or hyphens, ending in a letter or digit) before the `/`',
      'mcp.yaml:7:36: _meta key "tools.mcp.com/x" of tool "echo" uses a prefix reserved for MCP itself; use a prefix of your own, such as your domain (`example.com/`)',
      'mcp.yaml:7:113: tool "echo": _meta key "ui" is set by its `ui` (the app that renders its results); remove it from `_meta`',
      'mcp.yaml:11:14: _meta key "x y" of resource "index" is not a valid name: it must start and end with a letter or digit, with only letters, digits, `-`, `_` and `.` between',
    ],
  },
  {
    name: "_meta: on a revision whose list entries have none",
    manifest: manifest("prompts:", "  review:", "    _meta: { example.com/x: 1 }").replace(
      "protocol: 2025-06-18",
      "protocol: 2025-03-26",
    ),
    stderr: [
      'mcp.yaml:6:5: prompt "review" declares _meta, but list entries carry _meta from protocol 2025-06-18 on and the manifest generates for 2025-03-26; add a later revision to `protocol` or remove it',
    ],
  },
  // ---------------------------------------------------------------- auth
  {
    name: "auth: a tool scope missing from scopesSupported, offline_access, an insecure issuer, a resource with a fragment",
    manifest: manifest(
      "auth:",
      "  authorizationServers: [http://auth.example.com, https://ok.example.com]",
      "  scopesSupported: [notes:read, offline_access]",
      "  requiredScopes: [notes:raed]",
      "  resource: https://mcp.example.com/mcp#x",
      "tools:",
      "  add_note:",
      "    scopes: [notes:read, notes:write]",
    ),
    stderr: [
      'mcp.yaml:5:26: authorization server "http://auth.example.com" must use https (http is allowed on localhost only)',
      'mcp.yaml:6:33: auth.scopesSupported: scope "offline_access" is for the authorization server to grant (refresh tokens); a resource never asks for it (clients add it themselves when the authorization server supports it)',
      'mcp.yaml:7:20: auth.requiredScopes: scope "notes:raed" is not in auth.scopesSupported ("notes:read"); add it there or fix the name',
      'mcp.yaml:8:13: auth.resource "https://mcp.example.com/mcp#x" must not have a fragment; it is this server\'s canonical URI, e.g. https://mcp.example.com/mcp',
      'mcp.yaml:11:26: tool "add_note": scope "notes:write" is not in auth.scopesSupported ("notes:read"); add it there or fix the name',
    ],
  },
  {
    name: "auth: scopes on a prompt without an auth section; a scope with a space",
    manifest: manifest("prompts:", "  greet:", '    scopes: ["a b"]'),
    stderr: [
      'mcp.yaml:6:14: item 1 of "scopes" is not an OAuth scope name: printable ASCII without spaces, double quotes or backslashes (RFC 6749)',
    ],
  },
  {
    name: "auth: scopes on a resource template without an auth section",
    manifest: manifest("resourceTemplates:", "  note:", '    uriTemplate: "notes://{id}"', "    scopes: [notes:read]"),
    stderr: [
      'mcp.yaml:7:5: template "note" declares scopes, but the manifest has no `auth:` section; add one (authorizationServers, scopesSupported) or remove `scopes`',
    ],
  },
  {
    name: "auth: authorizationServers and scopesSupported are required",
    manifest: manifest("auth:", "  requiredScopes: [a]"),
    stderr: [
      'mcp.yaml:4:1: "auth" is missing required key "authorizationServers"',
      'mcp.yaml:4:1: "auth" is missing required key "scopesSupported"',
    ],
  },
  // ---------------------------------------------------------------- phases reported together
  {
    name: "shape errors do not hide the semantic problems of the parts they leave intact",
    manifest: manifest(
      "tools:",
      "  broken: { description: 1 }",
      "  add:",
      "    input: { type: object, required: [x], additionalProperties: false }",
      "resources:",
      "  cfg: { uri: nouri }",
      "prompts:",
      "  greet: { descripton: hi }",
      "  hello:",
      "    messages:",
      "      - role: user",
      '        text: "Hi {{who}}"',
    ),
    stderr: [
      'mcp.yaml:5:26: "description" must be a string, not an integer; quote it: "1"',
      'mcp.yaml:7:39: input schema of tool "add": required property "x" at /required/0 is not in properties, and additionalProperties is false, so no arguments are valid and the tool can never be called; add it to properties or remove it from required',
      'mcp.yaml:9:15: resource uri "nouri" has no scheme; write an absolute URI such as "config://app" or "file:///path"',
      'mcp.yaml:11:12: unknown key "descripton" (did you mean "description"?)',
      'mcp.yaml:15:19: template uses "who", which is not a declared argument of this prompt; declare it under arguments',
    ],
  },
  {
    name: "a broken server section still lets the tools be checked",
    manifest: [
      "mcpgen: 1",
      "server: { name: 1demo }",
      "protocol: 2025-06-18",
      "tools:",
      "  add:",
      "    input: { type: object, required: [x], additionalProperties: false }",
      "",
    ].join("\n"),
    stderr: [
      'mcp.yaml:2:1: "server" is missing required key "version"',
      'mcp.yaml:6:39: input schema of tool "add": required property "x" at /required/0 is not in properties, and additionalProperties is false, so no arguments are valid and the tool can never be called; add it to properties or remove it from required',
    ],
  },
  // ---------------------------------------------------------------- mistakes inside valid schemas
  {
    name: "defaults that fail their own schema, a required name missing under additionalProperties: false, misspelt keywords",
    manifest: manifest(
      "tools:",
      "  add:",
      "    input:",
      "      type: object",
      "      properties:",
      '        name: { type: string, minLength: 3, default: "ab" }',
      "        count: { type: integer, default: 1.5, x-ui: { requird: true } }",
      "        tags: { type: array, items: { type: string }, maxItem: 3, default: [], examples: [{ requird: 1 }] }",
      '        ref: { $ref: "#/$defs/pos", default: -1 }',
      "        requird: { type: string }",
      "      $defs:",
      "        pos: { type: integer, minimum: 0 }",
      "      requird: [name]",
      "      required: [naem]",
      "      additionalProperties: false",
    ),
    stderr: [
      'mcp.yaml:9:54: input schema of tool "add": the default at /properties/name/default does not match its own schema (it must NOT have fewer than 3 characters); fix the default or the schema',
      'mcp.yaml:10:42: input schema of tool "add": the default at /properties/count/default does not match its own schema (it must be integer); fix the default or the schema',
      'mcp.yaml:11:55: input schema of tool "add": unknown keyword "maxItem" at /properties/tags/maxItem (did you mean "maxItems"?); JSON Schema ignores it, so it checks nothing (if it is a custom keyword, name it x-… or set `lenientSchemas: true` in the manifest)',
      'mcp.yaml:12:46: input schema of tool "add": the default at /properties/ref/default does not match its own schema (it must be >= 0); fix the default or the schema',
      'mcp.yaml:16:7: input schema of tool "add": unknown keyword "requird" at /requird (did you mean "required"?); JSON Schema ignores it, so it checks nothing (if it is a custom keyword, name it x-… or set `lenientSchemas: true` in the manifest)',
      'mcp.yaml:17:18: input schema of tool "add": required property "naem" at /required/0 is not in properties, and additionalProperties is false, so no arguments are valid and the tool can never be called; did you mean "name"?',
    ],
  },
  {
    name: "indentation slips that leave valid YAML: a property dedented out of properties, output indented into input, a keyword and a tool key indented into properties",
    manifest: manifest(
      "tools:",
      "  search:",
      "    input:",
      "      type: object",
      "      properties:",
      "        query: { type: string }",
      "        additionalProperties: false",
      "        annotations:",
      "          readOnlyHint: true",
      "      limit: { type: integer, minimum: 1 }",
      "      x-ui: { type: string }",
      "      output:",
      "        type: object",
      "        properties:",
      "          hits: { type: array }",
      "elicitations:",
      "  confirm:",
      "    schema:",
      "      type: object",
      "      properties:",
      "        ok: { type: boolean }",
      "      identifier: confirmIt",
    ),
    stderr: [
      'mcp.yaml:10:9: input schema of tool "search": "additionalProperties" under `properties` at /properties/additionalProperties declares a property of that name, not the keyword; it looks indented one level too far: dedent it beside `properties` (if it is meant, set `lenientSchemas: true` in the manifest)',
      'mcp.yaml:11:9: input schema of tool "search": "annotations" under `properties` at /properties/annotations looks like the tool\'s "annotations" indented two levels too far: dedent it to the tool\'s level, beside "input" (if it is meant, set `lenientSchemas: true` in the manifest)',
      'mcp.yaml:13:7: input schema of tool "search": "limit" at /limit holds a schema but is no JSON Schema keyword; it looks like a property indented one level too far left: move it under `properties` (if it is a custom keyword, name it x-… or set `lenientSchemas: true` in the manifest)',
      'mcp.yaml:15:7: input schema of tool "search": "output" is inside "input"\'s schema, where it is no JSON Schema keyword; it looks indented one level too far: dedent it to the tool\'s level, beside "input" (if it is meant, set `lenientSchemas: true` in the manifest)',
      'mcp.yaml:25:7: schema of elicitation form "confirm": "identifier" is inside "schema"\'s schema, where it is no JSON Schema keyword; it looks indented one level too far: dedent it to the elicitation form\'s level, beside "schema" (if it is meant, set `lenientSchemas: true` in the manifest)',
    ],
  },
  {
    name: "lenientSchemas does not lift --strict: the slips are warnings, and --strict makes them errors again",
    manifest: manifest(
      "lenientSchemas: true",
      "tools:",
      "  add:",
      "    input: { type: object, limit: { type: integer }, requird: [a] }",
    ),
    args: ["mcp.yaml", "--out", "out", "--strict"],
    stderr: [
      'mcp.yaml:7:28: input schema of tool "add": "limit" at /limit holds a schema but is no JSON Schema keyword; it looks like a property indented one level too far left: move it under `properties`',
      'mcp.yaml:7:54: input schema of tool "add": unknown keyword "requird" at /requird (did you mean "required"?); JSON Schema ignores it, so it checks nothing',
    ],
  },
  {
    name: "an unknown keyword is an error under --strict, without a far-fetched suggestion",
    manifest: manifest("tools:", "  add:", "    input: { type: object, foo: 1 }"),
    args: ["mcp.yaml", "--out", "out", "--strict"],
    stderr: [
      'mcp.yaml:6:28: input schema of tool "add": unknown keyword "foo" at /foo; JSON Schema ignores it, so it checks nothing (name your own annotations x-…)',
    ],
  },
  {
    name: "a required name under additionalProperties: false in a referenced file is located in that file",
    manifest: manifest("tools:", "  add:", "    input: { $ref: ./schemas/add.json }"),
    files: {
      "schemas/add.json":
        '{\n  "type": "object",\n  "properties": { "a": { "type": "string" } },\n  "required": ["b"],\n  "additionalProperties": false\n}\n',
    },
    stderr: [
      'schemas/add.json:4:16: input schema of tool "add": required property "b" at /required/0 is not in properties, and additionalProperties is false, so no arguments are valid and the tool can never be called; add it to properties or remove it from required',
    ],
  },
  // ---------------------------------------------------------------- YAML
  {
    name: "YAML syntax: a flow mapping that is never closed",
    manifest: ["mcpgen: 1", 'server: { name: demo, version: "1.0.0"', "protocol: 2025-06-18", ""].join("\n"),
    stderr: ["mcp.yaml:3:1: invalid YAML: Flow map in block collection must be sufficiently indented and end with a }"],
  },
  {
    name: "YAML syntax: tabs used for indentation",
    manifest: ["mcpgen: 1", "server:", "\tname: demo", '\tversion: "1.0.0"', ""].join("\n"),
    stderr: [
      "mcp.yaml:3:1: tab used for indentation; indent YAML with spaces",
      "mcp.yaml:4:1: tab used for indentation; indent YAML with spaces",
    ],
  },
  {
    name: "YAML: a key that appears twice",
    manifest: manifest("protocol: 2025-03-26"),
    stderr: ["mcp.yaml:4:1: duplicate key; each key may appear once in a mapping"],
  },
  {
    name: "YAML: a key that is not a string",
    manifest: manifest("tools:", "  1: {}"),
    stderr: ["mcp.yaml:5:3: keys must be strings; quote this key"],
  },
  {
    name: "YAML: an alias without its anchor",
    manifest: manifest("tools:", "  ping: *defaults"),
    stderr: [
      "mcp.yaml:5:9: alias *defaults refers to no anchor; define &defaults on a value above it, or remove the *",
    ],
  },
  {
    name: "YAML: more than one document",
    manifest: manifest("---", "mcpgen: 1"),
    stderr: [
      "mcp.yaml:4:1: more than one YAML document; a manifest is a single document, so remove this `---` and what follows or move it to another file",
    ],
  },
  {
    name: "an empty manifest",
    manifest: "",
    stderr: ["mcp.yaml:1:1: the manifest is empty; start it with `mcpgen: 1` and a `server:` with name and version"],
  },
  {
    name: "a manifest that is a list",
    manifest: "- mcpgen: 1\n",
    stderr: ["mcp.yaml:1:1: the manifest must be a mapping, not a list"],
  },

  // ---------------------------------------------------------------- shape: keys
  {
    name: "unknown top-level key, with a did-you-mean",
    manifest: ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', "protocl: 2025-06-18", ""].join("\n"),
    stderr: ['mcp.yaml:3:1: unknown key "protocl" (did you mean "protocol"?)'],
  },
  {
    name: "unknown key inside a tool, with a did-you-mean",
    manifest: manifest("tools:", "  ping:", "    descripton: Replies pong"),
    stderr: ['mcp.yaml:6:5: unknown key "descripton" (did you mean "description"?)'],
  },
  {
    name: "unknown key with a hostile name lists the allowed keys",
    manifest: manifest('"*/ `${x}` \\" \' \\\\ \\u2028": 1'),
    stderr: [`mcp.yaml:4:1: unknown key "*/ \`\${x}\` \\" ' \\\\ \\u2028"; expected one of: ${topLevelKeys}`],
  },
  {
    name: "unknown key in tool annotations",
    manifest: manifest("tools:", "  ping:", "    annotations: { readonly: true }"),
    stderr: [
      'mcp.yaml:6:20: unknown key "readonly"; expected one of: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint',
    ],
  },
  {
    name: "missing required server.name",
    manifest: ["mcpgen: 1", "server:", '  version: "1.0.0"', ""].join("\n"),
    stderr: ['mcp.yaml:2:1: "server" is missing required key "name"'],
  },
  {
    name: "missing mcpgen",
    manifest: ['server: { name: demo, version: "1.0.0" }', ""].join("\n"),
    stderr: ['mcp.yaml:1:1: the manifest is missing required key "mcpgen" (start the file with `mcpgen: 1`)'],
  },

  // ---------------------------------------------------------------- shape: values
  {
    name: "wrong type: version: 1.0 is a number, and the hint quotes it as written",
    manifest: ["mcpgen: 1", "server:", "  name: demo", "  version: 1.0", ""].join("\n"),
    stderr: ['mcp.yaml:4:12: "version" must be a string, not a number; quote it: "1.0"'],
  },
  {
    name: "wrong manifest format version",
    manifest: ["mcpgen: 2", 'server: { name: demo, version: "1.0.0" }', ""].join("\n"),
    stderr: ['mcp.yaml:1:9: "mcpgen" must be 1'],
  },
  {
    name: "unknown protocol revision",
    manifest: ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', "protocol: 2025-06-19", ""].join("\n"),
    stderr: [
      `mcp.yaml:3:11: "2025-06-19" is not a released protocol revision; use one of: ${revisions} (did you mean "2025-06-18"?), or put its schema.json in the protocol schema folder as 2025-06-19/schema.json`,
    ],
  },
  {
    name: "unknown revision in a protocol list points at the item",
    manifest: ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', "protocol: [2025-06-18, 2024-01-01]", ""].join(
      "\n",
    ),
    stderr: [
      `mcp.yaml:3:24: "2024-01-01" is not a released protocol revision; use one of: ${revisions} (did you mean "2024-11-05"?), or put its schema.json in the protocol schema folder as 2024-01-01/schema.json`,
    ],
  },
  {
    name: "a protocol entry that cannot name a revision (not a date, not draft) is refused with the manifest's shape",
    manifest: ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', "protocol: [2025-06-18, latest]", ""].join(
      "\n",
    ),
    stderr: [`mcp.yaml:3:24: "latest" is not a released protocol revision; use one of: ${revisions}`],
  },
  {
    name: "revision listed twice",
    manifest: ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', "protocol: [2025-06-18, 2025-06-18]", ""].join(
      "\n",
    ),
    stderr: ["mcp.yaml:3:24: protocol lists 2025-06-18 twice; list each revision once"],
  },
  {
    name: "tools written as a list",
    manifest: manifest("tools: [ping]"),
    stderr: ['mcp.yaml:4:8: "tools" must be a mapping, not a list'],
  },
  {
    name: "a tool that is a string",
    manifest: manifest("tools:", "  ping: replies pong"),
    stderr: ['mcp.yaml:5:9: "ping" must be a mapping, not a string'],
  },
  {
    name: "enum that allows the empty string shows it",
    manifest: manifest("generate: { importExtension: .mjs }"),
    stderr: ['mcp.yaml:4:30: "importExtension" must be one of: .js, .ts, "" (did you mean ".js"?)'],
  },
  {
    name: "resource annotation out of range",
    manifest: manifest("resources:", '  app: { uri: "config://app", annotations: { priority: 2 } }'),
    stderr: ['mcp.yaml:5:56: "priority" must be <= 1'],
  },
  {
    name: "empty tool name",
    manifest: manifest("tools:", '  "": {}'),
    stderr: ['mcp.yaml:5:3: "" is not a valid name: it must be 1 to 128 characters'],
  },
  {
    name: "identifier: that is not an identifier",
    manifest: manifest("tools:", '  ping: { identifier: "9ping" }'),
    stderr: [
      'mcp.yaml:5:23: "identifier" must be a JavaScript identifier (letters, digits, _ or $, not starting with a digit)',
    ],
  },

  // ---------------------------------------------------------------- settings
  {
    name: "settings: a default of another type, a secret number, two settings on one environment variable",
    manifest: manifest(
      "settings:",
      "  api_key: { description: Key, secret: true }",
      '  port: { description: Port, type: number, default: "80", secret: true }',
      "  other: { description: Other, env: api_key }",
    ),
    stderr: [
      'mcp.yaml:6:53: setting "port" is of type number, so its default must be a number',
      'mcp.yaml:6:67: setting "port" is of type number; only string settings can be secret',
      'mcp.yaml:7:32: settings "api_key" and "other" both use the environment variable api_key; give one another `env`',
    ],
  },
  {
    name: "settings: a name that cannot be a user_config key, no description, an unknown type, an env that is no variable name",
    manifest: manifest(
      "settings:",
      "  9lives: { title: Lives }",
      '  mode: { description: Mode, type: text, env: "MY-MODE" }',
    ),
    stderr: [
      'mcp.yaml:5:3: "9lives" is missing required key "description"',
      'mcp.yaml:5:3: "9lives" is not a valid setting name: a letter, then up to 63 letters, digits or _',
      'mcp.yaml:6:36: "type" must be one of: string, number, boolean, directory, file',
      'mcp.yaml:6:47: "env" must be an environment variable name: letters, digits and _, not starting with a digit',
    ],
  },

  // ---------------------------------------------------------------- JSON Schema
  {
    name: "invalid JSON Schema: type: strng",
    manifest: manifest(
      "tools:",
      "  ping:",
      "    input:",
      "      type: object",
      "      properties:",
      "        city: { type: strng }",
    ),
    stderr: [
      'mcp.yaml:9:23: input schema of tool "ping" is not a valid JSON Schema 2020-12: /properties/city/type must be one of: "array", "boolean", "integer", "null", "number", "object", "string" (did you mean "string"?)',
    ],
  },
  {
    name: 'invalid JSON Schema: minimum: "a"',
    manifest: manifest(
      "tools:",
      "  ping:",
      "    input:",
      "      type: object",
      "      properties:",
      '        days: { type: integer, minimum: "a" }',
    ),
    stderr: [
      'mcp.yaml:9:41: input schema of tool "ping" is not a valid JSON Schema 2020-12: /properties/days/minimum must be number',
    ],
  },
  {
    name: "input schema whose root is not an object",
    manifest: manifest("tools:", "  ping:", "    input:", "      type: string"),
    stderr: [
      'mcp.yaml:7:7: input schema of tool "ping" must have `type: object` at its root: tool arguments are always a JSON object',
    ],
  },
  {
    name: "input schema that is a list",
    manifest: manifest("tools:", "  ping:", "    input: [city]"),
    stderr: ['mcp.yaml:6:12: "input" must be a mapping, not a list'],
  },
  {
    name: "output schema whose root is not an object, for a revision that needs one",
    manifest: manifest("tools:", "  ping:", "    output: { type: string }"),
    stderr: [
      'mcp.yaml:6:13: output schema of tool "ping" must have `type: object` at its root for protocol revisions before 2026-07-28; wrap the value in an object or generate for 2026-07-28 only',
    ],
  },
  {
    name: "x-mcp-header: not a header name, on a number argument, and used twice",
    manifest: manifest(
      "tools:",
      "  route:",
      "    input:",
      "      type: object",
      "      properties:",
      '        region: { type: string, x-mcp-header: "Region Name" }',
      "        weight: { type: number, x-mcp-header: Weight }",
      "        zone: { type: string, x-mcp-header: Zone }",
      "        area: { type: string, x-mcp-header: zone }",
    ),
    stderr: [
      'mcp.yaml:9:47: x-mcp-header of argument "region" in the input schema of tool "route" must be a non-empty header name of letters, digits and !#$%&\'*+-.^_`|~ (it becomes Mcp-Param-<name>)',
      'mcp.yaml:10:47: argument "weight" in the input schema of tool "route" has x-mcp-header but its type is "number"; only string, integer and boolean arguments can be mirrored into a header',
      'mcp.yaml:12:45: x-mcp-header "zone" of argument "area" in the input schema of tool "route" is already used by argument "zone" (header names ignore case); give each argument its own header',
    ],
  },
  {
    name: "cache hint and listChanged out of range",
    manifest: [
      "mcpgen: 1",
      'server: { name: demo, version: "1.0.0", cache: { ttlMs: -5, scope: shared }, listChanged: [tools, roots] }',
      "protocol: 2026-07-28",
      "",
    ].join("\n"),
    stderr: [
      'mcp.yaml:2:57: "ttlMs" must be >= 0',
      'mcp.yaml:2:68: "scope" must be one of: public, private',
      'mcp.yaml:2:99: item 2 of "listChanged" must be one of: tools, prompts, resources (did you mean "tools"?)',
    ],
  },
  {
    name: "asks: elicitation before 2025-06-18, and on a declarative prompt",
    manifest: [
      "mcpgen: 1",
      'server: { name: demo, version: "1.0.0" }',
      "protocol: [2025-03-26, 2024-11-05]",
      "tools:",
      "  confirm: { asks: [sampling, elicitation] }",
      "prompts:",
      "  greet:",
      "    asks: [sampling]",
      "    messages: [{ role: user, text: hello }]",
      "",
    ].join("\n"),
    stderr: [
      'mcp.yaml:5:31: asks: "elicitation" needs protocol 2025-06-18 or later, but the manifest generates for 2025-03-26, 2024-11-05; add a later revision to `protocol` or remove it',
      'mcp.yaml:8:5: prompt "greet" has declarative `messages`, so no handler runs to ask the client anything; remove `asks` or write a handler instead of `messages`',
    ],
  },
  {
    name: "elicitation form with a nested object field",
    manifest: manifest(
      "elicitations:",
      "  address:",
      "    schema:",
      "      type: object",
      "      properties:",
      "        street: { type: string }",
      "        geo: { type: object, properties: { lat: { type: number } } }",
    ),
    stderr: [
      'mcp.yaml:10:22: field "geo" of elicitation form "address" must be a string, number, integer or boolean (or a list of enum choices); forms have no nested objects',
    ],
  },
  {
    name: "unsupported $schema dialect",
    manifest: manifest(
      "tools:",
      "  ping:",
      '    input: { $schema: "http://json-schema.org/draft-04/schema#", type: object }',
    ),
    stderr: [
      'mcp.yaml:6:23: input schema of tool "ping" declares $schema "http://json-schema.org/draft-04/schema#"; mcp-gen supports JSON Schema 2020-12 (the default) and draft-07',
    ],
  },
  {
    name: "local $ref to a missing definition points at the $ref",
    manifest: manifest(
      "tools:",
      "  ping:",
      "    input:",
      "      type: object",
      "      properties:",
      '        city: { $ref: "#/$defs/City" }',
    ),
    stderr: [
      'mcp.yaml:9:23: input schema of tool "ping": $ref "#/$defs/City" does not resolve: this schema has nothing at "/$defs/City"; fix the reference or add the definition',
    ],
  },
  {
    name: "a schema's required list naming a property twice",
    manifest: manifest(
      "tools:",
      "  ping:",
      "    input:",
      "      type: object",
      "      properties:",
      "        a: { type: string }",
      "      required: [a, a]",
    ),
    stderr: [
      'mcp.yaml:10:17: input schema of tool "ping" is not a valid JSON Schema 2020-12: /required must not list the same value twice (items 1 and 0)',
    ],
  },
  {
    name: "invalid regular expression in pattern",
    manifest: manifest(
      "tools:",
      "  ping:",
      "    input:",
      "      type: object",
      "      properties:",
      '        code: { type: string, pattern: "[A-Z" }',
    ),
    stderr: [
      'mcp.yaml:9:40: input schema of tool "ping": pattern "[A-Z" is not a valid ECMAScript regular expression with the u flag (Unterminated character class); fix the expression (with the u flag, escape only syntax characters, e.g. write - instead of \\-)',
    ],
  },

  // ---------------------------------------------------------------- $ref to files
  {
    name: "$ref to a missing file",
    manifest: manifest("tools:", "  ping:", "    input: { $ref: ./schemas/ping.json }"),
    stderr: [
      'mcp.yaml:6:20: $ref names "schemas/ping.json", which cannot be read; check the path (it is relative to the file that contains the $ref)',
    ],
  },
  {
    name: "$ref that leaves the manifest's folder",
    manifest: manifest("tools:", "  ping:", "    input: { $ref: ../shared/ping.json }"),
    stderr: [
      'mcp.yaml:6:20: $ref "../shared/ping.json" leaves the manifest\'s folder "."; move the schema into that folder (or one below it) and reference it from there',
    ],
  },
  {
    name: "$ref to a URL",
    manifest: manifest("tools:", "  ping:", '    input: { $ref: "https://example.com/ping.json" }'),
    stderr: [
      'mcp.yaml:6:20: $ref "https://example.com/ping.json" points to a URL; mcp-gen never fetches schemas from the network, so save it as a file next to the manifest and reference that',
    ],
  },
  {
    name: "$ref to a missing fragment, with a did-you-mean",
    manifest: manifest("tools:", "  ping:", '    input: { $ref: "./schemas/defs.json#/$defs/Adress" }'),
    files: { "schemas/defs.json": JSON.stringify({ $defs: { Address: { type: "object" } } }, null, 2) },
    stderr: [
      'mcp.yaml:6:20: $ref "./schemas/defs.json#/$defs/Adress": "schemas/defs.json" has nothing at "/$defs/Adress"; did you mean "/$defs/Address"?',
    ],
  },
  {
    name: "$ref fragment that is not a JSON pointer",
    manifest: manifest("tools:", "  ping:", '    input: { $ref: "./schemas/defs.json#Address" }'),
    files: { "schemas/defs.json": JSON.stringify({ $defs: { Address: { type: "object" } } }, null, 2) },
    stderr: [
      'mcp.yaml:6:20: $ref "./schemas/defs.json#Address" has a fragment that is not a JSON pointer; use the form file.json#/$defs/Name',
    ],
  },
  {
    name: "invalid JSON Schema inside a referenced file is reported in that file",
    manifest: manifest("tools:", "  ping:", "    input: { $ref: ./schemas/ping.json }"),
    files: {
      "schemas/ping.json": '{\n  "type": "object",\n  "properties": {\n    "city": { "type": "strin" }\n  }\n}\n',
    },
    stderr: [
      'schemas/ping.json:4:23: input schema of tool "ping" is not a valid JSON Schema 2020-12: /properties/city/type must be one of: "array", "boolean", "integer", "null", "number", "object", "string" (did you mean "string"?)',
    ],
  },
  {
    name: "YAML syntax error inside a referenced file",
    manifest: manifest("tools:", "  ping:", "    input: { $ref: ./schemas/ping.yaml }"),
    files: { "schemas/ping.yaml": "type: object\nproperties:\n  city: { type: string\n" },
    stderr: [
      "schemas/ping.yaml:4:1: invalid YAML: Flow map in block collection must be sufficiently indented and end with a }",
    ],
  },

  // ---------------------------------------------------------------- protocolSchemas
  {
    name: "protocolSchemas that is not a string",
    manifest: manifest("protocolSchemas: [./mcp-schema]"),
    stderr: ['mcp.yaml:4:18: "protocolSchemas" must be a string, not a list'],
  },
  {
    name: "protocolSchemas that is empty",
    manifest: manifest('protocolSchemas: ""'),
    stderr: ['mcp.yaml:4:18: "protocolSchemas" must not be empty'],
  },
  {
    name: "protocolSchemas that leaves the project root",
    manifest: manifest("protocolSchemas: ./schemas/../../mcp-schema"),
    stderr: [
      'mcp.yaml:4:18: protocolSchemas "./schemas/../../mcp-schema" leads outside the project root (the folder holding mcp.yaml); choose a folder inside it (for a folder shared with other projects, pass --schema-dir or set MCP_GEN_SCHEMA_DIR instead)',
    ],
  },
  {
    name: "protocolSchemas as an absolute path",
    manifest: manifest("protocolSchemas: /srv/mcp-schema"),
    stderr: [
      'mcp.yaml:4:18: protocolSchemas "/srv/mcp-schema" is an absolute path; give a folder relative to the project root (the folder holding mcp.yaml), such as ./mcp-schema (for a folder shared with other projects, pass --schema-dir or set MCP_GEN_SCHEMA_DIR instead)',
    ],
  },

  // ---------------------------------------------------------------- names
  {
    name: "two tools that become the same identifier",
    manifest: manifest("tools:", "  get-forecast: {}", "  get_forecast: {}"),
    stderr: [
      'mcp.yaml:6:3: tool "get_forecast" and tool "get-forecast" (at 5:3) both become the identifier "getForecast"; rename one or set `identifier:`',
    ],
  },
  {
    name: "a tool named with a reserved word",
    manifest: manifest("tools:", "  delete: {}"),
    stderr: [
      'mcp.yaml:5:3: tool name "delete" becomes "delete", a reserved word; rename it or set `identifier:` to the name its handler should have',
    ],
  },
  {
    name: "a prompt named like an Object.prototype member",
    manifest: manifest("prompts:", "  constructor: {}"),
    stderr: [
      'mcp.yaml:5:3: prompt name "constructor" becomes "constructor", a reserved word; rename it or set `identifier:` to the name its handler should have',
    ],
  },
  {
    name: "a tool name that starts with a digit",
    manifest: manifest("tools:", '  "3d-view": {}'),
    stderr: [
      'mcp.yaml:5:3: tool name "3d-view" becomes "3dView", which starts with a digit; rename it or set `identifier:` to the name its handler should have',
    ],
  },
  {
    name: "an explicit identifier: that is a reserved word",
    manifest: manifest("tools:", "  remove: { identifier: delete }"),
    stderr: ['mcp.yaml:5:25: identifier "delete" of tool "remove" is a reserved word; choose another identifier'],
  },
  {
    name: "an explicit identifier: that collides with another tool",
    manifest: manifest("tools:", "  ping: { identifier: pong }", "  pong: {}"),
    stderr: [
      'mcp.yaml:6:3: tool "pong" and tool "ping" (at 5:3) both become the identifier "pong"; rename one or set `identifier:`',
    ],
  },
  {
    name: "generated type names that collide across kinds",
    manifest: manifest("tools:", "  x_prompt: {}", "prompts:", "  x: {}"),
    stderr: [
      'mcp.yaml:7:3: prompt "x" needs the type name XPromptArgs, which tool "x_prompt" (at 5:3) already uses; rename one or set `identifier:`',
    ],
  },
  {
    name: "hostile tool name without letters or digits",
    manifest: manifest("tools:", '  "*/": {}', '  "`${}`": {}'),
    stderr: [
      'mcp.yaml:5:3: tool name "*/" contains no letters or digits; rename it or set `identifier:` to the name its handler should have',
      'mcp.yaml:6:3: tool name "`${}`" contains no letters or digits; rename it or set `identifier:` to the name its handler should have',
    ],
  },
  {
    name: "hostile tool names that collide, U+2028 escaped in the message",
    manifest: manifest("tools:", '  "a\\u2028b": {}', "  a-b: {}"),
    stderr: [
      'mcp.yaml:6:3: tool "a-b" and tool "a\\u2028b" (at 5:3) both become the identifier "aB"; rename one or set `identifier:`',
    ],
  },
  {
    name: "hostile server name that cannot name the generated types",
    manifest: ["mcpgen: 1", 'server: { name: "*/ `${}`", version: "1.0.0" }', "protocol: 2025-06-18", ""].join("\n"),
    stderr: [
      'mcp.yaml:2:17: server name "*/ `${}`" cannot name the generated createXServer/XHandlers/XClient; use a name that starts with a letter',
    ],
  },

  // ---------------------------------------------------------------- resources and templates
  {
    name: "two resources with the same URI",
    manifest: manifest("resources:", '  app: { uri: "config://app" }', '  settings: { uri: "config://app" }'),
    stderr: ['mcp.yaml:6:20: resource uri "config://app" is already declared at 5:15; each resource needs its own uri'],
  },
  {
    name: "resource URI without a scheme (hostile)",
    manifest: manifest("resources:", '  app: { uri: "`${x}`/config" }'),
    stderr: [
      'mcp.yaml:5:15: resource uri "`${x}`/config" has no scheme; write an absolute URI such as "config://app" or "file:///path"',
    ],
  },
  {
    name: "uriTemplate with an unclosed brace",
    manifest: manifest("resourceTemplates:", '  city: { uriTemplate: "weather://{city/current" }'),
    stderr: ["mcp.yaml:5:35: uriTemplate: '{' is never closed; write variables as {name}"],
  },
  {
    name: "uriTemplate with a stray closing brace points at it, not at an earlier one",
    manifest: manifest("resourceTemplates:", '  city: { uriTemplate: "weather://{city}/x}" }'),
    stderr: ["mcp.yaml:5:43: uriTemplate: '}' closes no '{'; write variables as {name}, and use %7D for a literal '}'"],
  },
  {
    name: "uriTemplate with an RFC 6570 operator",
    manifest: manifest("resourceTemplates:", '  file: { uriTemplate: "file:///{+path}" }'),
    stderr: [
      "mcp.yaml:5:33: uriTemplate: {+path} uses an RFC 6570 operator; mcp-gen supports level 1 templates, where each {name} matches one path segment",
    ],
  },
  {
    name: "uriTemplate with a variable twice points at the second",
    manifest: manifest("resourceTemplates:", '  city: { uriTemplate: "weather://{city}/{city}" }'),
    stderr: ["mcp.yaml:5:42: uriTemplate: variable city appears twice in the template; each variable may appear once"],
  },
  {
    name: "uriTemplate without a scheme",
    manifest: manifest("resourceTemplates:", '  city: { uriTemplate: "{city}/current" }'),
    stderr: ['mcp.yaml:5:24: uriTemplate "{city}/current" must start with a URI scheme such as "weather://"'],
  },
  {
    name: "template variables: settings for a variable the uriTemplate does not have",
    manifest: manifest(
      "resourceTemplates:",
      "  city:",
      '    uriTemplate: "weather://{city}/current"',
      "    variables:",
      "      town: { complete: true }",
    ),
    stderr: [
      'mcp.yaml:8:7: variables: "town" is not a variable of uriTemplate "weather://{city}/current"; its variables are "city"',
    ],
  },
  {
    name: "prompt argument: complete must be a boolean",
    manifest: manifest("prompts:", "  greet:", "    arguments: { name: { complete: yes } }"),
    stderr: ['mcp.yaml:6:36: "complete" must be true or false, not a string'],
  },
  {
    name: "uriTemplate with a hostile variable name",
    manifest: manifest("resourceTemplates:", '  city: { uriTemplate: "weather://{*/}/current" }'),
    stderr: [
      "mcp.yaml:5:35: uriTemplate: {*/} is not a valid variable name; use letters, digits and _, with single dots between them",
    ],
  },

  // ---------------------------------------------------------------- prompt templates
  {
    name: "prompt template using an undeclared variable, each use located",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: { required: true } }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{nme}}, and {{nme}} again"',
    ),
    stderr: [
      'mcp.yaml:9:22: template uses "nme", which is not a declared argument of this prompt; declare it under arguments or use one of: name',
      'mcp.yaml:9:35: template uses "nme", which is not a declared argument of this prompt; declare it under arguments or use one of: name',
    ],
  },
  {
    name: "prompt template with a helper",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{uppercase name}}"',
    ),
    stderr: ["mcp.yaml:9:22: helpers are not supported in prompt templates; write {{name}}"],
  },
  {
    name: "prompt template with an unsupported block helper",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{#each name}}x{{/each}}"',
    ),
    stderr: ["mcp.yaml:9:22: {{#each}} is not supported; prompt templates allow {{#if name}} and {{#unless name}}"],
  },
  {
    name: "prompt template with an unclosed tag",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{name}} and {{name"',
    ),
    stderr: [
      "mcp.yaml:9:35: invalid template: {{name is not closed; end the tag with }}, or write \\{{ for literal braces",
    ],
  },
  {
    name: "prompt template with an unclosed block",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{#if name}}{{name}}"',
    ),
    stderr: ["mcp.yaml:9:22: invalid template: {{#if name}} is never closed; end the block with {{/if}}"],
  },
  {
    name: "prompt template with a closing tag and no block",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{name}}{{/if}}"',
    ),
    stderr: [
      "mcp.yaml:9:30: invalid template: {{/if}} closes no open block; remove it or open the block with {{#if name}}",
    ],
  },
  {
    name: "prompt template closing blocks in the wrong order (block scalar)",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      "        text: |",
      "          Hello {{name}}",
      "          {{#if name}}",
      "            Welcome back",
      "          {{/unless}}",
    ),
    stderr: [
      "mcp.yaml:13:11: invalid template: {{/unless}} does not close the open {{#if}} block; close the innermost block first",
    ],
  },
  {
    name: "prompt template with whitespace control and an undeclared argument, located at its tag",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{~nme~}}"',
    ),
    stderr: [
      'mcp.yaml:9:22: template uses "nme", which is not a declared argument of this prompt; declare it under arguments or use one of: name',
    ],
  },
  {
    name: "prompt template with a hostile string expression",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    messages:",
      "      - role: user",
      "        text: 'Hello {{\"*/`${x}`\"}}'",
    ),
    stderr: ["mcp.yaml:8:22: only argument names may appear inside {{ }}"],
  },
  {
    name: "prompt template with a parent path",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    arguments: { name: {} }",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{../name}}"',
    ),
    stderr: [
      'mcp.yaml:9:22: "../name" is not a plain argument name; write {{name}} with one of the declared arguments',
    ],
  },
  {
    name: "prompt template with a partial",
    manifest: manifest(
      "prompts:",
      "  greet:",
      "    messages:",
      "      - role: user",
      '        text: "Hello {{> signature}}"',
    ),
    stderr: ["mcp.yaml:8:22: partials and decorators are not supported in prompt templates"],
  },
  {
    name: "prompt message with an unknown role",
    manifest: manifest("prompts:", "  greet:", "    messages:", "      - role: system", "        text: Hello"),
    stderr: ['mcp.yaml:7:15: "role" must be one of: user, assistant'],
  },

  // ---------------------------------------------------------------- command line
  {
    name: "missing manifest file",
    manifest: manifest(),
    args: ["missing.yaml", "--out", "out"],
    stderr: ["missing.yaml: no such manifest; pass the path of your mcp.yaml"],
  },
  {
    name: "usage error: --check with --dry-run",
    manifest: manifest(),
    args: ["mcp.yaml", "--out", "out", "--check", "--dry-run"],
    stderr: ["--check and --dry-run cannot be combined (see mcp-gen --help)"],
    exit: 2,
  },
  {
    name: "usage error: an option given twice",
    manifest: manifest(),
    args: ["mcp.yaml", "--out", "out", "--out", "elsewhere"],
    stderr: ["--out given more than once; give it once (see mcp-gen --help)"],
    exit: 2,
  },
  {
    name: "usage error: unknown option",
    manifest: manifest(),
    args: ["mcp.yaml", "--outdir", "out"],
    stderr: ["Unknown argument: outdir (see mcp-gen --help)"],
    exit: 2,
  },
  {
    name: "usage error: pack --no-mcpb with nothing else to write",
    manifest: manifest(),
    args: ["pack", "--no-mcpb", "--out", "out"],
    stderr: ["--no-mcpb leaves nothing to write; add --server-json or --remote <url> (see mcp-gen --help)"],
    exit: 2,
  },
  {
    name: "usage error: pack --remote over plain http to another host",
    manifest: manifest(),
    args: ["pack", "--remote", "http://mcp.example.com/mcp", "--out", "out"],
    stderr: ["--remote must be one https:// URL (http:// only on localhost) (see mcp-gen --help)"],
    exit: 2,
  },
  {
    name: "pack: no entry to bundle",
    manifest: manifest(),
    args: ["pack", "--entry", "src/server.ts", "--no-mcpb", "--server-json", "--out", "out"],
    stderr: [
      "mcp.yaml:2:1: server.description is missing: .mcpb bundles and the MCP Registry show it to the people installing the server; add `description:` under `server:`",
      "src/server.ts: no such file: the server's entry",
    ],
  },
];

/** Every file under `dir` (relative path → bytes), to prove a run wrote nothing. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path).toString("base64"));
    }
  };
  walk(dir);
  return files;
}

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

describe("bad manifests", () => {
  it("has at least 25 cases, all with distinct names", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  describe.concurrent("each fails with its exact message and exit code, and writes nothing", () => {
    for (const c of cases) {
      it(c.name, async () => {
        const project = tempProject({ "mcp.yaml": c.manifest ?? manifest(), ...c.files });
        projects.push(project);
        const before = snapshot(project);
        const run = await runCliAsync(c.args ?? ["mcp.yaml", "--out", "out"], project);
        expect({ exit: run.status, stderr: run.stderr.split("\n").filter((l) => l !== "") }).toEqual({
          exit: c.exit ?? 1,
          stderr: c.stderr.map((line) => `mcp-gen: ${line}`),
        });
        expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(run.stdout).toBe("");
        expect(existsSync(join(project, "out"))).toBe(false);
        expect(existsSync(join(project, "mcp"))).toBe(false);
        expect(snapshot(project)).toEqual(before);
      });
    }
  });

  it("leaves an existing output folder byte-identical", async () => {
    const previous = {
      "mcp/index.ts": "// Code generated by mcp-gen v0.0.1. DO NOT EDIT.\nexport {};\n",
      "mcp/server.gen.ts": "// Code generated by mcp-gen v0.0.1. DO NOT EDIT.\nexport const stale = true;\n",
      "mcp/handwritten.ts": "export const mine = 1;\n",
    };
    const project = tempProject({
      "mcp.yaml": manifest("output: ./mcp", "tools:", "  get-forecast: {}", "  get_forecast: {}"),
      ...previous,
    });
    projects.push(project);
    const before = snapshot(project);
    const mtimes = Object.keys(previous).map((path) => statSync(join(project, path)).mtimeMs);
    const run = await runCliAsync(["mcp.yaml"], project);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'mcp-gen: mcp.yaml:7:3: tool "get_forecast" and tool "get-forecast" (at 6:3) both become the identifier "getForecast"; rename one or set `identifier:`\n',
    );
    expect(snapshot(project)).toEqual(before);
    expect(Object.keys(previous).map((path) => statSync(join(project, path)).mtimeMs)).toEqual(mtimes);
  });
});

// ---------------------------------------------------------------------------------------
describe("lenientSchemas: true", () => {
  it("turns the slips into warnings and generates; x-… keywords stay silent, other unknown keywords stay warnings", async () => {
    const lines = [
      "tools:",
      "  add:",
      "    input:",
      "      type: object",
      "      properties:",
      "        a: { type: string, x-widget: { type: string } }",
      "      limit: { type: integer }",
      "      requird: [a]",
      "      nullable: true",
    ];
    const project = tempProject({ "mcp.yaml": manifest("lenientSchemas: true", ...lines) });
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "--out", "out", "-q"], project);
    expect(run.stderr.split("\n").filter((l) => l !== "")).toEqual([
      'mcp-gen: mcp.yaml:11:7: warning: input schema of tool "add": "limit" at /limit holds a schema but is no JSON Schema keyword; it looks like a property indented one level too far left: move it under `properties`',
      'mcp-gen: mcp.yaml:12:7: warning: input schema of tool "add": unknown keyword "requird" at /requird (did you mean "required"?); JSON Schema ignores it, so it checks nothing',
      'mcp-gen: mcp.yaml:13:7: warning: input schema of tool "add": unknown keyword "nullable" at /nullable; JSON Schema ignores it, so it checks nothing (name your own annotations x-…)',
    ]);
    expect(run.status).toBe(0);
    expect(existsSync(join(project, "out", "server.gen.ts"))).toBe(true);
    // Without the setting, the same manifest stops on the first two.
    const strict = tempProject({ "mcp.yaml": manifest(...lines) });
    projects.push(strict);
    const refused = await runCliAsync(["mcp.yaml", "--out", "out", "-q"], strict);
    expect(refused.status).toBe(1);
    expect(
      refused.stderr
        .split("\n")
        .filter((l) => l.includes("warning:") === false && l !== "")
        .map((l) => l.slice(0, 30)),
    ).toEqual(["mcp-gen: mcp.yaml:10:7: input ", "mcp-gen: mcp.yaml:11:7: input "]);
    expect(existsSync(join(strict, "out"))).toBe(false);
  });
});

// Hostile strings that are valid

/** The hostile tail most strings of fixtures/bad-manifests/hostile/mcp.yaml end with. */
const tail = " */ `${x}` \" ' \\ \u2028 \u2029 </script>";
const modes = ["a*/b", "`${x}`", "\"'\\", "\u2028\u2029", "</script>"];

describe("hostile strings that are valid", () => {
  let project = "";

  it("generate code that compiles under strict settings", async () => {
    project = tempProject({}, join(fixtures, "hostile"));
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "-q"], project);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const generated = readdirSync(join(project, "mcp")).map((f) => join(project, "mcp", f));
    expect(generated.map((f) => relative(project, f)).sort()).toEqual(
      ["client.gen.ts", "index.ts", "protocol.gen.ts", "server.gen.ts", "types.gen.ts", "validators.gen.ts"].map((f) =>
        join("mcp", f),
      ),
    );
    // The handlers use the generated types, including the "__proto__" and "*/ `${x}`" properties.
    const errors = typecheck([...generated, join(project, "handlers.ts")]);
    expect(errors, formatTypeErrors(errors)).toEqual([]);
  });

  it("serve and deliver every string byte for byte", async () => {
    expect(project, "the compile test must run first").not.toBe("");
    // The generated code and this test share one runtime instance: @mcp-gen/runtime.
    const { memoryChannel } = await import("@mcp-gen/runtime");
    const generatedIndex = (await import(pathToFileURL(join(project, "mcp", "index.ts")).href)) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const { handlers } = (await import(pathToFileURL(join(project, "handlers.ts")).href)) as { handlers: unknown };
    const server = generatedIndex.createHostileServer!(handlers);
    const client = (await generatedIndex.connectHostileClient!(
      memoryChannel(server as Parameters<typeof memoryChannel>[0]),
    )) as HostileClient;
    try {
      expect(client.session.server.info).toEqual({
        name: "hostile",
        version: "1.0.0 */ `${v}`",
        title: "Title */ /* `${x}` ${y} \" ' \\ \u2028 \u2029 </script>",
      });
      expect(client.session.server.instructions).toBe(`Instructions${tail}\nsecond line`);

      const { tools } = (await client.session.rawRequest("tools/list", {})) as { tools: Record<string, unknown>[] };
      const echoName = "echo */`${x}`\"'\\";
      expect(tools.map((t) => t.name)).toEqual([echoName, "`${x}`"]);
      const echo = tools[0]!;
      expect(echo.title).toBe(`Echo${tail}`);
      expect(echo.description).toBe("Echoes */ /** `${x}` \" ' \\ \u2028 \u2029 </script>");
      // Computed ["__proto__"] keys make own properties, as JSON.parse does on the wire.
      expect(echo.inputSchema).toEqual({
        type: "object",
        description: "Input */ `${x}` \" ' \\ \u2028 \u2029",
        properties: {
          text: { type: "string", description: `Text${tail}`, default: `default${tail}` },
          mode: { type: "string", enum: modes },
          ["__proto__"]: { type: "string", description: "Proto */ `${x}`" },
          "*/ `${x}`": { type: "number", description: "A property named */ `${x}`" },
        },
        required: ["mode"],
        additionalProperties: false,
      });
      const outputSchema = echo.outputSchema as {
        properties: Record<string, { description?: string; enum?: string[] }>;
      };
      expect(Object.keys(outputSchema.properties)).toEqual(["echoed", "mode", "__proto__"]);
      expect(outputSchema.properties.echoed!.description).toBe(`Echoed${tail}`);
      expect(outputSchema.properties.mode!.enum).toEqual(modes);
      expect(JSON.stringify(tools[1])).toBe(
        JSON.stringify({
          name: "`${x}`",
          description: "Another tool whose name is only `${x}`",
          inputSchema: { type: "object", properties: {} },
        }),
      );

      // tools/call with hostile arguments, an own "__proto__" and a property named "*/ `${x}`".
      for (const mode of modes) {
        const args = JSON.parse(JSON.stringify({ mode, ["__proto__"]: `p${tail}`, "*/ `${x}`": 7 })) as Record<
          string,
          unknown
        >;
        const result = await client.tools.echoX(args);
        expect(result.isError ?? false).toBe(false);
        const structured = result.structuredContent as Record<string, unknown>;
        expect(structured.echoed).toBe(`default${tail}|p${tail}|7`);
        expect(structured.mode).toBe(mode);
        expect(Object.prototype.hasOwnProperty.call(structured, "__proto__")).toBe(true);
        expect(structured["__proto__"]).toBe(`own p${tail}`);
        expect(Object.getPrototypeOf(structured)).toBe(Object.prototype);
      }
      const plain = await client.tools.echoX({ mode: "</script>", text: `t${tail}` });
      expect((plain.structuredContent as Record<string, unknown>).echoed).toBe(`t${tail}|(no __proto__)|(no number)`);
      // A value outside the hostile enum is rejected by the generated validator.
      const rejected = await client.session
        .rawRequest("tools/call", { name: echoName, arguments: { mode: "a*/c" } })
        .then(
          (r) => r,
          (e: unknown) => e,
        );
      expect(JSON.stringify(rejected)).toMatch(/mode/);
      const x = await client.tools.x({});
      expect(x.content).toEqual([{ type: "text", text: "*/ `${x}` \" ' \\ \u2028 \u2029 </script>" }]);

      // Resources and templates.
      const { resources } = (await client.session.rawRequest("resources/list", {})) as {
        resources: Record<string, unknown>[];
      };
      expect(resources).toEqual([
        {
          uri: "hostile://doc/*/`${x}`'\"",
          name: "Doc */ `${x}` \u2028",
          description: `Doc${tail}`,
          mimeType: "text/plain",
        },
      ]);
      const doc = (await client.resources.doc()) as { contents: { uri: string; text: string }[] };
      expect(doc.contents).toEqual([
        { uri: "hostile://doc/*/`${x}`'\"", mimeType: "text/plain", text: "doc */ `${x}` \u2028" },
      ]);
      const { resourceTemplates } = (await client.session.rawRequest("resources/templates/list", {})) as {
        resourceTemplates: Record<string, unknown>[];
      };
      expect(resourceTemplates).toEqual([
        { uriTemplate: "hostile://item/{id}/*/`$", name: "item", description: "Item */ `${x}` \" ' \\ \u2028 \u2029" },
      ]);
      const item = (await client.resourceTemplates.item({ id: "a/b `${x}` \u2028" })) as {
        contents: { uri: string; text: string }[];
      };
      expect(item.contents[0]!.text).toBe("item a/b `${x}` \u2028");
      expect(item.contents[0]!.uri).toBe(`hostile://item/${encodeURIComponent("a/b `${x}` \u2028")}/*/\`$`);

      // Prompts: a declarative one rendered by generated code, and one with a handler.
      const { prompts } = (await client.session.rawRequest("prompts/list", {})) as {
        prompts: Record<string, unknown>[];
      };
      expect(prompts[0]).toEqual({
        name: "greet",
        title: "Greet */ `${x}`",
        description: `Greets${tail}`,
        arguments: [
          { name: "name", description: "Name */ `${x}` \" ' \\ \u2028", required: true },
          { name: "*/ `${x}`", description: "An argument named */ `${x}`", required: false },
        ],
      });
      const greeting = (await client.prompts.greet({ name: `N${tail}` })) as {
        messages: { role: string; content: { text: string } }[];
      };
      expect(greeting.messages.map((m) => [m.role, m.content.text])).toEqual([
        ["user", `Hi N${tail}${tail} {{name}} yes */`],
        ["assistant", `\`\${ N${tail} }\``],
      ]);
      const asked = (await client.prompts.ask({ q: `Q${tail}` })) as { messages: { content: { text: string } }[] };
      expect(asked.messages[0]!.content.text).toBe(`asked Q${tail}`);
    } finally {
      await client.close();
    }
  });
});

/** The parts of the generated HostileClient this test uses (the module is imported at run time). */
interface HostileClient {
  readonly session: {
    readonly server: { readonly info: unknown; readonly instructions: string | undefined };
    rawRequest(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  };
  readonly tools: {
    echoX(
      args: Record<string, unknown>,
    ): Promise<{ content: unknown[]; structuredContent?: unknown; isError?: boolean }>;
    x(args: Record<string, unknown>): Promise<{ content: unknown[] }>;
  };
  readonly resources: { doc(): Promise<unknown> };
  readonly resourceTemplates: { item(variables: { id: string }): Promise<unknown> };
  readonly prompts: {
    greet(args: Record<string, string>): Promise<unknown>;
    ask(args: Record<string, string>): Promise<unknown>;
  };
  close(): Promise<void>;
}
