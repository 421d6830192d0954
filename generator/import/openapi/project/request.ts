// The HTTP side of a project written by `mcp-gen import openapi`: one function turns a tool's
// arguments into the upstream request its operation describes (URL, query, headers, cookies,
// body, credentials), sends it, and turns the answer into a tool result. The operations
// themselves are data (operations.gen.ts). This file is copied into the project verbatim and
// imports nothing but Node's globals: the project depends on @mcp-gen/runtime alone.

/** How one parameter travels, as the OpenAPI document says (defaults already applied). */
export interface ParameterSpec {
  /** Its name on the wire. */
  readonly name: string;
  /** Its key in the tool's arguments (differs from `name` when two parameters clash). */
  readonly arg: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly style: "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  readonly explode: boolean;
  readonly allowReserved?: boolean | undefined;
}

export interface BodySpec {
  /** Its key in the tool's arguments. */
  readonly arg: string;
  readonly contentType: string;
  /** How the content type is written: JSON, a form, multipart parts, text, or base64 bytes. */
  readonly encoding: "json" | "form" | "multipart" | "text" | "binary";
}

export interface OperationSpec {
  /** The tool's name, for messages. */
  readonly tool: string;
  readonly method: string;
  /** The path template, e.g. `/pets/{petId}`. */
  readonly path: string;
  readonly parameters: readonly ParameterSpec[];
  readonly body?: BodySpec | undefined;
  /** JSON answers become structuredContent (under `wrap` when the schema is not an object). */
  readonly output?: { readonly wrap?: string | undefined } | undefined;
  /** Alternatives, each a list of security scheme names that must all be satisfied. */
  readonly security: readonly (readonly string[])[];
}

/** A security scheme and the environment variables its credentials come from. */
export type SecuritySpec =
  | { readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly name: string; readonly env: string }
  | { readonly type: "bearer"; readonly env: string }
  | { readonly type: "basic"; readonly userEnv: string; readonly passwordEnv: string };

/** Where requests go and what they carry: read once from the environment (see upstreamFromEnv). */
export interface Upstream {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly schemes: Readonly<Record<string, SecuritySpec>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** At most this many characters of an error answer's body go into the tool error. */
  readonly excerptChars?: number | undefined;
}

type Content =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } };

/** A tool error for the model: what went wrong, in one text block. */
export interface UpstreamError {
  readonly content: readonly Content[];
  readonly isError: true;
}

/**
 * The upstream of this project: `MCP_UPSTREAM_URL` overrides the document's server URL,
 * `MCP_UPSTREAM_TIMEOUT_MS` the 30-second timeout of each request.
 */
export function upstreamFromEnv(
  documentUrl: string | undefined,
  schemes: Readonly<Record<string, SecuritySpec>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Upstream {
  const baseUrl = env.MCP_UPSTREAM_URL ?? documentUrl;
  if (baseUrl === undefined || !/^https?:\/\//.test(baseUrl)) {
    throw new Error(
      `the API's base URL is ${baseUrl === undefined ? "not in its document" : `relative (${baseUrl})`}: set MCP_UPSTREAM_URL to an absolute http(s) URL`,
    );
  }
  const timeoutMs = env.MCP_UPSTREAM_TIMEOUT_MS === undefined ? 30_000 : Number(env.MCP_UPSTREAM_TIMEOUT_MS);
  if (!(timeoutMs > 0))
    throw new Error(
      `MCP_UPSTREAM_TIMEOUT_MS must be a positive number of milliseconds, not ${JSON.stringify(env.MCP_UPSTREAM_TIMEOUT_MS)}`,
    );
  return { baseUrl: baseUrl.replace(/\/+$/, ""), timeoutMs, schemes, env };
}

const failure = (text: string): UpstreamError => ({ content: [{ type: "text", text }], isError: true });

/** RFC 3986 unreserved characters stay; everything else is percent-encoded (UTF-8). */
const encodeStrict = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** `allowReserved`: reserved characters (RFC 3986 gen-delims and sub-delims) stay as they are. */
const encodeReserved = (value: string) =>
  encodeURI(value)
    .replace(/%25([0-9A-Fa-f]{2})/g, "%$1")
    .replace(/[#[\]]/g, (c) => encodeURIComponent(c));

const scalar = (value: unknown): string =>
  typeof value === "string"
    ? value
    : typeof value === "object" && value !== null
      ? JSON.stringify(value)
      : String(value);

/**
 * One parameter serialized by its style (OpenAPI 3.1 §4.8.12.4): returns the pieces the
 * location joins (a path segment, query pairs already encoded, a header value, cookie pairs).
 */
function serialize(spec: ParameterSpec, value: unknown): string[] {
  const encode = spec.in === "header" ? (v: string) => v : spec.allowReserved ? encodeReserved : encodeStrict;
  const name = encode(spec.name);
  const entries: [string, string][] | undefined =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.entries(value)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, scalar(v)])
      : undefined;
  const items = Array.isArray(value) ? value.map(scalar) : undefined;
  switch (spec.style) {
    case "simple":
    case "label":
    case "matrix": {
      const prefix = spec.style === "label" ? "." : spec.style === "matrix" ? `;${name}=` : "";
      const separator = spec.explode
        ? spec.style === "label"
          ? "."
          : spec.style === "matrix"
            ? `;${name}=`
            : ","
        : ",";
      if (items) return [prefix + items.map(encode).join(separator)];
      if (entries) {
        if (spec.style === "matrix")
          return [
            spec.explode
              ? entries.map(([k, v]) => `;${encode(k)}=${encode(v)}`).join("")
              : prefix + entries.flat().map(encode).join(","),
          ];
        return [
          prefix +
            (spec.explode
              ? entries.map(([k, v]) => `${encode(k)}=${encode(v)}`).join(separator)
              : entries.flat().map(encode).join(",")),
        ];
      }
      return [prefix + encode(scalar(value))];
    }
    case "form":
      if (items)
        return spec.explode ? items.map((v) => `${name}=${encode(v)}`) : [`${name}=${items.map(encode).join(",")}`];
      if (entries)
        return spec.explode
          ? entries.map(([k, v]) => `${encode(k)}=${encode(v)}`)
          : [`${name}=${entries.flat().map(encode).join(",")}`];
      return [`${name}=${encode(scalar(value))}`];
    case "spaceDelimited":
    case "pipeDelimited": {
      const separator = spec.style === "spaceDelimited" ? "%20" : "%7C";
      if (items)
        return spec.explode
          ? items.map((v) => `${name}=${encode(v)}`)
          : [`${name}=${items.map(encode).join(separator)}`];
      return [`${name}=${encode(scalar(value))}`];
    }
    case "deepObject":
      return (entries ?? []).map(([k, v]) => `${name}%5B${encode(k)}%5D=${encode(v)}`);
  }
}

/** The body as fetch sends it, or a message saying why the argument does not fit the content type. */
function encodeBody(
  spec: BodySpec,
  value: unknown,
): { body: string | FormData | Uint8Array; contentType?: string } | string {
  switch (spec.encoding) {
    case "json":
      return { body: JSON.stringify(value), contentType: spec.contentType };
    case "text":
      return { body: scalar(value), contentType: spec.contentType };
    case "binary":
      return typeof value === "string"
        ? { body: Buffer.from(value, "base64"), contentType: spec.contentType }
        : "the body must be a base64 string";
    case "form": {
      if (typeof value !== "object" || value === null) return "the body must be an object of form fields";
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(value))
        if (v !== undefined) for (const item of Array.isArray(v) ? v : [v]) form.append(k, scalar(item));
      return { body: form.toString(), contentType: spec.contentType };
    }
    case "multipart": {
      if (typeof value !== "object" || value === null) return "the body must be an object of parts";
      const form = new FormData();
      for (const [k, v] of Object.entries(value))
        if (v !== undefined) for (const item of Array.isArray(v) ? v : [v]) form.append(k, scalar(item));
      // fetch writes the content type with its boundary.
      return { body: form };
    }
  }
}

/** Credentials of the first security alternative whose variables are all set, applied to the request. */
function authorize(
  upstream: Upstream,
  operation: OperationSpec,
  url: URL,
  headers: Headers,
  cookies: string[],
): string | undefined {
  if (operation.security.length === 0) return undefined;
  const missing: string[] = [];
  for (const alternative of operation.security) {
    const schemes = alternative.map((name) => upstream.schemes[name]);
    const unset = schemes
      .flatMap((s) => (s === undefined ? [] : s.type === "basic" ? [s.userEnv, s.passwordEnv] : [s.env]))
      .filter((v) => !upstream.env[v]);
    if (schemes.includes(undefined) || unset.length > 0) {
      missing.push(unset.join(" and "));
      continue;
    }
    for (const scheme of schemes as SecuritySpec[]) {
      if (scheme.type === "bearer") headers.set("authorization", `Bearer ${upstream.env[scheme.env]}`);
      else if (scheme.type === "basic")
        headers.set(
          "authorization",
          `Basic ${Buffer.from(`${upstream.env[scheme.userEnv]}:${upstream.env[scheme.passwordEnv]}`).toString("base64")}`,
        );
      else if (scheme.in === "header") headers.set(scheme.name, upstream.env[scheme.env]!);
      else if (scheme.in === "query") url.searchParams.append(scheme.name, upstream.env[scheme.env]!);
      else cookies.push(`${scheme.name}=${encodeStrict(upstream.env[scheme.env]!)}`);
    }
    return undefined;
  }
  // An operation whose security lists an empty alternative ({}) may go without credentials.
  if (operation.security.some((alternative) => alternative.length === 0)) return undefined;
  return `${operation.tool} needs credentials: set ${[...new Set(missing.filter((m) => m !== ""))].join(", or ")}`;
}

/** The upstream request for these arguments, or a message saying what is wrong with them. */
export function buildRequest(
  upstream: Upstream,
  operation: OperationSpec,
  args: Readonly<Record<string, unknown>>,
): { url: URL; init: RequestInit } | string {
  let path = operation.path;
  const query: string[] = [];
  const headers = new Headers({ accept: "application/json, */*;q=0.8" });
  const cookies: string[] = [];
  for (const parameter of operation.parameters) {
    const value = args[parameter.arg];
    if (value === undefined) {
      if (parameter.in === "path") return `${operation.tool}: the path parameter ${parameter.arg} is missing`;
      continue;
    }
    const pieces = serialize(parameter, value);
    if (parameter.in === "path") path = path.split(`{${parameter.name}}`).join(pieces.join(""));
    else if (parameter.in === "query") query.push(...pieces);
    else if (parameter.in === "header") headers.set(parameter.name, pieces.join(","));
    else
      cookies.push(
        ...pieces.map((piece) => (piece.includes("=") ? piece : `${encodeStrict(parameter.name)}=${piece}`)),
      );
  }
  const url = new URL(upstream.baseUrl + path);
  if (query.length > 0) url.search = (url.search === "" ? "" : `${url.search.slice(1)}&`) + query.join("&");
  const problem = authorize(upstream, operation, url, headers, cookies);
  if (problem !== undefined) return problem;
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
  const init: RequestInit = { method: operation.method.toUpperCase(), headers, redirect: "follow" };
  if (operation.body !== undefined && args[operation.body.arg] !== undefined) {
    const encoded = encodeBody(operation.body, args[operation.body.arg]);
    if (typeof encoded === "string") return `${operation.tool}: ${encoded}`;
    init.body = encoded.body;
    if (encoded.contentType !== undefined) headers.set("content-type", encoded.contentType);
  }
  return { url, init };
}

/** The 2xx answer of an operation, or the tool error its failure becomes. */
async function send(
  upstream: Upstream,
  operation: OperationSpec,
  args: object,
  signal: AbortSignal,
): Promise<{ label: string; url: URL; status: number; contentType: string; bytes: Uint8Array } | UpstreamError> {
  const request = buildRequest(upstream, operation, args as Record<string, unknown>);
  if (typeof request === "string") return failure(request);
  const label = `${request.init.method} ${request.url.pathname}`;
  let response: Response;
  let bytes: Uint8Array;
  // A timer of our own, not AbortSignal.timeout inside AbortSignal.any: Node 20 may collect
  // that timeout signal while the request waits, and the timeout then never fires.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), upstream.timeoutMs);
  try {
    response = await fetch(request.url, { ...request.init, signal: AbortSignal.any([signal, timeout.signal]) });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    // A cancelled call is the caller's doing: the runtime answers it, not a tool error.
    if (signal.aborted) throw error;
    const timedOut = timeout.signal.aborted;
    const cause = (error as Error).cause instanceof Error ? ` (${((error as Error).cause as Error).message})` : "";
    return failure(
      timedOut
        ? `${label}: no answer within ${upstream.timeoutMs} ms`
        : `${label}: ${(error as Error).message}${cause}`,
    );
  } finally {
    clearTimeout(timer);
  }
  const contentType = response.headers.get("content-type") ?? "";
  if (!response.ok) {
    const limit = upstream.excerptChars ?? 2000;
    const body = new TextDecoder().decode(bytes);
    const excerpt = body.length > limit ? `${body.slice(0, limit)}… (${body.length - limit} more characters)` : body;
    return failure(
      `${label} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${excerpt === "" ? "" : `: ${excerpt}`}`,
    );
  }
  return { label, url: request.url, status: response.status, contentType, bytes };
}

const isJson = (contentType: string) => /^application\/(?:[\w.+-]*\+)?json\b/i.test(contentType);

/**
 * Calls an operation whose 2xx answer is JSON: it becomes structuredContent (under
 * `output.wrap` when its schema is not an object). A non-2xx answer, a timeout or a network
 * failure becomes a tool error carrying the status and the start of the body; cancelling the
 * call (`signal`) aborts the request.
 */
export async function callJson<Output>(
  upstream: Upstream,
  operation: OperationSpec,
  args: object,
  signal: AbortSignal,
): Promise<{ structuredContent: Output } | UpstreamError> {
  const answer = await send(upstream, operation, args, signal);
  if ("isError" in answer) return answer;
  const { label, status, contentType, bytes } = answer;
  if (!isJson(contentType) || bytes.length === 0)
    return failure(
      `${label} answered HTTP ${status} with ${bytes.length === 0 ? "no body" : contentType || "no content type"}, not the JSON its description promises`,
    );
  let parsed: unknown;
  const text = new TextDecoder().decode(bytes);
  try {
    parsed = JSON.parse(text);
  } catch {
    return failure(`${label} answered HTTP ${status} with JSON that does not parse: ${text.slice(0, 200)}`);
  }
  const wrap = operation.output?.wrap;
  return { structuredContent: (wrap === undefined ? parsed : { [wrap]: parsed }) as Output };
}

/**
 * Calls an operation without an output schema: its 2xx answer becomes text (text, JSON, XML,
 * YAML), image, audio or embedded-resource content by its content type; failures as callJson.
 */
export async function callContent(
  upstream: Upstream,
  operation: OperationSpec,
  args: object,
  signal: AbortSignal,
): Promise<{ content: readonly Content[] } | UpstreamError> {
  const answer = await send(upstream, operation, args, signal);
  if ("isError" in answer) return answer;
  const { label, url, status, contentType, bytes } = answer;
  if (bytes.length === 0) return { content: [{ type: "text", text: `${label}: HTTP ${status}, no content` }] };
  const mimeType = contentType.split(";")[0]!.trim().toLowerCase();
  const base64 = () => Buffer.from(bytes).toString("base64");
  if (mimeType.startsWith("image/")) return { content: [{ type: "image", data: base64(), mimeType }] };
  if (mimeType.startsWith("audio/")) return { content: [{ type: "audio", data: base64(), mimeType }] };
  if (mimeType === "" || mimeType.startsWith("text/") || isJson(mimeType) || /[+/](?:xml|yaml)$/.test(mimeType))
    return { content: [{ type: "text", text: new TextDecoder().decode(bytes) }] };
  return { content: [{ type: "resource", resource: { uri: url.href, mimeType, blob: base64() } }] };
}
