// The 2026-07-28 HTTP binding mirrors parts of a request body into headers (SEP-2243):
// Mcp-Name for the named methods and Mcp-Param-<Name> for tool arguments a tool declares
// with `x-mcp-header`. Client and server share these rules so they cannot drift apart.
import { excerpt } from "../excerpt.js";

/**
 * Methods whose Mcp-Name header mirrors a params field (no prototype: "constructor" names
 * nothing); the tasks extension (SEP-2663) adds the task id of tasks/get, tasks/update and
 * tasks/cancel, so that proxies can route a task's requests to the instance holding it.
 */
export const namedMethods: Readonly<Record<string, string | undefined>> = Object.assign(
  Object.create(null) as Record<string, string>,
  {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
  },
);

/** Header names a tool may declare with `x-mcp-header` (RFC 9110 token characters). */
const headerToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Parameter types a tool may mirror; numbers are excluded (their text form is ambiguous). */
const headerTypes = new Set(["string", "integer", "boolean"]);
/** Canonical base64: whole quanta, padding only where needed (atob alone is lenient). */
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Header-safe form of a value: as is when plain visible ASCII, else the =?base64?...?= sentinel. */
export function encodeHeaderValue(value: string): string {
  const plain =
    /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !(value.startsWith("=?base64?") && value.endsWith("?="));
  if (plain) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/**
 * The value a mirrored header carries: the `=?base64?...?=` sentinel decoded (canonical
 * base64 of UTF-8 only), anything else literally; undefined when the sentinel is malformed.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith("=?base64?") || !value.endsWith("?=") || value.length < 11) return value;
  const encoded = value.slice(9, -2);
  if (!canonicalBase64.test(encoded)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * The `x-mcp-header` declarations of a tool's inputSchema: argument name -> header name
 * (an empty map when there are none), or undefined when a declaration is invalid (empty,
 * not a token, on a non-primitive or number parameter, or duplicated case-insensitively),
 * in which case clients must not use the tool at all.
 */
export function toolParamHeaders(inputSchema: unknown): Map<string, string> | undefined {
  const properties = (inputSchema as { properties?: unknown } | undefined)?.properties;
  const headers = new Map<string, string>();
  if (properties === null || typeof properties !== "object") return headers;
  const seen = new Set<string>();
  for (const [argument, schema] of Object.entries(properties as Record<string, unknown>)) {
    if (schema === null || typeof schema !== "object" || !("x-mcp-header" in schema)) continue;
    const name = (schema as Record<string, unknown>)["x-mcp-header"];
    const type = (schema as Record<string, unknown>).type;
    if (typeof name !== "string" || !headerToken.test(name) || seen.has(name.toLowerCase())) return undefined;
    if (typeof type !== "string" || !headerTypes.has(type)) return undefined;
    seen.add(name.toLowerCase());
    headers.set(argument, name);
  }
  return headers;
}

/** The text an Mcp-Param-* header mirrors for one argument; undefined (no header) for null, absent or non-primitive values. */
export function paramHeaderText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Checks the Mcp-Param-* headers of a tools/call against its arguments: every declared
 * argument present in the body must be mirrored with the same value, and no header may
 * stand for an argument the body lacks. Returns why they disagree, if they do.
 */
export function paramHeaderMismatch(
  declared: Readonly<Record<string, string>>,
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  const values =
    args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  for (const [argument, name] of Object.entries(declared)) {
    const expected = paramHeaderText(values[argument]);
    const raw = header(`mcp-param-${name.toLowerCase()}`);
    if (raw === undefined) {
      if (expected !== undefined) return `required header Mcp-Param-${name} is missing`;
      continue;
    }
    const actual = decodeHeaderValue(raw);
    if (actual === undefined) return `Mcp-Param-${name} header has an invalid base64 value`;
    if (expected === undefined) return `Mcp-Param-${name} header is present but argument '${argument}' is not`;
    if (actual !== expected)
      return `Mcp-Param-${name} header value '${excerpt(actual)}' does not match argument '${argument}'`;
  }
  return undefined;
}
