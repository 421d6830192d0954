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
  /** A parameter described by `content`: its value is written as this media type (JSON text), then encoded. */
  readonly contentType?: string | undefined;
}

export interface BodySpec {
  /** Its key in the tool's arguments. */
  readonly arg: string;
  readonly contentType: string;
  /** How the content type is written: JSON, a form, multipart parts, text, XML text, or base64 bytes. */
  readonly encoding: "json" | "form" | "multipart" | "text" | "xml" | "binary";
  /** Multipart fields sent as files (their arguments are base64), with each part's content type. */
  readonly files?: Readonly<Record<string, string>> | undefined;
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
  /** The OAuth 2 scopes the operation asks for, by security scheme (when it names any). */
  readonly scopes?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** A security scheme and the environment variables its credentials come from. */
export type SecuritySpec =
  | { readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly name: string; readonly env: string }
  | { readonly type: "bearer"; readonly env: string }
  | { readonly type: "basic"; readonly userEnv: string; readonly passwordEnv: string }
  | {
      /** OAuth 2 client credentials: a token from `tokenUrl` (`tokenUrlEnv` overrides it), cached until it expires. */
      readonly type: "clientCredentials";
      readonly tokenUrl: string;
      readonly tokenUrlEnv: string;
      readonly clientIdEnv: string;
      readonly clientSecretEnv: string;
      /** `client_secret_basic` (the default) or `client_secret_post`. */
      readonly authMethodEnv: string;
    };

/** Where requests go and what they carry: read once from the environment (see upstreamFromEnv). */
export interface Upstream {
  /** Absent when neither MCP_UPSTREAM_URL nor the document gives one: the server still starts and
   * lists its tools (hosts do that before the user configures anything); calls answer `noBaseUrl`. */
  readonly baseUrl?: string | undefined;
  readonly noBaseUrl?: string | undefined;
  readonly timeoutMs: number;
  readonly schemes: Readonly<Record<string, SecuritySpec>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** At most this many characters of an error answer's body go into the tool error. */
  readonly excerptChars?: number | undefined;
  /** How many times an idempotent request answered 429 or 503 is sent again (default 2). */
  readonly retries?: number | undefined;
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
 * The upstream of this project: `MCP_UPSTREAM_URL` (unless empty) overrides the document's server URL,
 * `MCP_UPSTREAM_TIMEOUT_MS` the 30-second timeout of each call (retries and token included),
 * `MCP_UPSTREAM_RETRIES` the 2 retries of idempotent requests answered 429 or 503.
 */
export function upstreamFromEnv(
  documentUrl: string | undefined,
  schemes: Readonly<Record<string, SecuritySpec>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Upstream {
  // An empty value is unset: a host passes one for a bundle's upstream_url setting left empty.
  const given = env.MCP_UPSTREAM_URL || undefined;
  if (given !== undefined && !isAbsolute(given))
    throw new Error(`MCP_UPSTREAM_URL must be an absolute http(s) URL, not ${JSON.stringify(given)}`);
  const baseUrl = given ?? (documentUrl !== undefined && isAbsolute(documentUrl) ? documentUrl : undefined);
  const noBaseUrl = `no base URL for the API: its document ${documentUrl === undefined ? "names none" : `gives a relative one (${documentUrl})`}; set MCP_UPSTREAM_URL (the upstream_url setting) to its absolute http(s) URL`;
  const timeoutMs = env.MCP_UPSTREAM_TIMEOUT_MS === undefined ? 30_000 : Number(env.MCP_UPSTREAM_TIMEOUT_MS);
  if (!(timeoutMs > 0))
    throw new Error(
      `MCP_UPSTREAM_TIMEOUT_MS must be a positive number of milliseconds, not ${JSON.stringify(env.MCP_UPSTREAM_TIMEOUT_MS)}`,
    );
  const retries = env.MCP_UPSTREAM_RETRIES === undefined ? 2 : Number(env.MCP_UPSTREAM_RETRIES);
  if (!Number.isInteger(retries) || retries < 0)
    throw new Error(
      `MCP_UPSTREAM_RETRIES must be a whole number of retries (0 for none), not ${JSON.stringify(env.MCP_UPSTREAM_RETRIES)}`,
    );
  return { baseUrl: baseUrl?.replace(/\/+$/, ""), noBaseUrl, timeoutMs, schemes, env, retries };
}

const isAbsolute = (url: string) => /^https?:\/\/[^/]/i.test(url) && URL.canParse(url);

const failure = (text: string): UpstreamError => ({ content: [{ type: "text", text }], isError: true });

/** RFC 3986 unreserved characters stay; everything else is percent-encoded (UTF-8). */
const encodeStrict = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** `allowReserved`: reserved characters (RFC 3986 gen-delims and sub-delims) stay as they are. */
const encodeReserved = (value: string) =>
  encodeURI(value)
    .replace(/%25([0-9A-Fa-f]{2})/g, "%$1")
    .replace(/[#[\]]/g, (c) => encodeURIComponent(c));

/** JSON media types: application/json and application/*+json. */
const isJson = (contentType: string) => /^application\/(?:[\w.+-]*\+)?json\b/i.test(contentType);

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
  if (spec.contentType !== undefined) {
    // `content` (OpenAPI 3.1 §4.8.12.2): the value written as its media type, then encoded for its place.
    const written = isJson(spec.contentType) ? JSON.stringify(value) : scalar(value);
    return spec.in === "path" || spec.in === "header" ? [encode(written)] : [`${name}=${encode(written)}`];
  }
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
    case "xml":
      return typeof value === "string"
        ? { body: value, contentType: spec.contentType }
        : "the body must be the XML document as a string";
    case "multipart": {
      if (typeof value !== "object" || value === null) return "the body must be an object of parts";
      const form = new FormData();
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        const fileType = spec.files?.[k];
        for (const item of Array.isArray(v) ? v : [v]) {
          if (fileType === undefined) form.append(k, scalar(item));
          else if (typeof item !== "string") return `the part ${k} must be a base64 string (a file)`;
          else form.append(k, new Blob([Buffer.from(item, "base64")], { type: fileType }), k);
        }
      }
      // fetch writes the content type with its boundary.
      return { body: form };
    }
  }
}

/** The environment variables a security scheme's credentials come from. */
const variablesOf = (scheme: SecuritySpec): string[] =>
  scheme.type === "basic"
    ? [scheme.userEnv, scheme.passwordEnv]
    : scheme.type === "clientCredentials"
      ? [scheme.clientIdEnv, scheme.clientSecretEnv]
      : [scheme.env];

/** An OAuth 2 client credentials scheme the chosen alternative needs a token from. */
interface TokenNeed {
  readonly name: string;
  readonly scheme: Extract<SecuritySpec, { type: "clientCredentials" }>;
  readonly scopes: readonly string[];
}

/**
 * Credentials of the first security alternative whose variables are all set, applied to the
 * request; OAuth 2 tokens are fetched later (send). An optional alternative (`{}`) is taken
 * only when no other is set, wherever the document lists it.
 */
function authorize(
  upstream: Upstream,
  operation: OperationSpec,
  url: URL,
  headers: Headers,
  cookies: string[],
): TokenNeed[] | string {
  if (operation.security.length === 0) return [];
  const missing: string[] = [];
  for (const alternative of operation.security) {
    if (alternative.length === 0) continue;
    const schemes = alternative.map((name) => upstream.schemes[name]);
    const unset = schemes.flatMap((s) => (s === undefined ? [] : variablesOf(s))).filter((v) => !upstream.env[v]);
    if (schemes.includes(undefined) || unset.length > 0) {
      missing.push(unset.join(" and "));
      continue;
    }
    const tokens: TokenNeed[] = [];
    alternative.forEach((name, i) => {
      const scheme = schemes[i]!;
      if (scheme.type === "clientCredentials")
        tokens.push({ name, scheme, scopes: [...(operation.scopes?.[name] ?? [])].sort() });
      else if (scheme.type === "bearer") headers.set("authorization", `Bearer ${upstream.env[scheme.env]}`);
      else if (scheme.type === "basic")
        headers.set(
          "authorization",
          `Basic ${Buffer.from(`${upstream.env[scheme.userEnv]}:${upstream.env[scheme.passwordEnv]}`).toString("base64")}`,
        );
      else if (scheme.in === "header") headers.set(scheme.name, upstream.env[scheme.env]!);
      else if (scheme.in === "query") url.searchParams.append(scheme.name, upstream.env[scheme.env]!);
      else cookies.push(`${scheme.name}=${encodeStrict(upstream.env[scheme.env]!)}`);
    });
    return tokens;
  }
  if (operation.security.some((alternative) => alternative.length === 0)) return [];
  return `${operation.tool} needs credentials: set ${[...new Set(missing.filter((m) => m !== ""))].join(", or ")}`;
}

/** The upstream request for these arguments (and the OAuth 2 tokens it needs), or a message saying what is wrong with them. */
export function buildRequest(
  upstream: Upstream,
  operation: OperationSpec,
  args: Readonly<Record<string, unknown>>,
): { url: URL; init: RequestInit & { headers: Headers }; tokens: readonly TokenNeed[] } | string {
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
  if (upstream.baseUrl === undefined) return `${operation.tool}: ${upstream.noBaseUrl ?? "no base URL for the API"}`;
  const url = new URL(upstream.baseUrl + path);
  if (query.length > 0) url.search = (url.search === "" ? "" : `${url.search.slice(1)}&`) + query.join("&");
  const tokens = authorize(upstream, operation, url, headers, cookies);
  if (typeof tokens === "string") return tokens;
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
  const init: RequestInit & { headers: Headers } = {
    method: operation.method.toUpperCase(),
    headers,
    redirect: "follow",
  };
  if (operation.body !== undefined && args[operation.body.arg] !== undefined) {
    const encoded = encodeBody(operation.body, args[operation.body.arg]);
    if (typeof encoded === "string") return `${operation.tool}: ${encoded}`;
    init.body = encoded.body;
    if (encoded.contentType !== undefined) headers.set("content-type", encoded.contentType);
  }
  return { url, init, tokens };
}

/** Waits for `promise`, or rejects with the signal's reason once it is aborted (the promise runs on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** `fetch` aborted by `signal` or at `deadline` (a timer of our own: see send). */
async function fetchBefore(
  url: URL,
  init: RequestInit,
  deadline: number,
  signal: AbortSignal,
): Promise<{ response: Response; bytes: Uint8Array } | { error: Error; timedOut: boolean }> {
  // Not AbortSignal.timeout inside AbortSignal.any: Node 20 may collect that timeout signal while
  // the request waits, and the timeout then never fires.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), Math.max(0, deadline - Date.now()));
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout.signal]) });
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    // A cancelled call is the caller's doing: the runtime answers it, not a tool error.
    if (signal.aborted) throw error;
    return { error: error as Error, timedOut: timeout.signal.aborted };
  } finally {
    clearTimeout(timer);
  }
}

const causeOf = (error: Error) => (error.cause instanceof Error ? ` (${error.cause.message})` : "");

interface CachedToken {
  readonly token: Promise<{ value: string; expiresAt: number } | string>;
  /** Set once the token is in; it is fetched again from then on. */
  expiresAt?: number;
}
/** OAuth 2 tokens of each upstream, by scheme and scopes: at most one request per token at a time. */
const tokenCaches = new WeakMap<Upstream, Map<string, CachedToken>>();

/**
 * The access token for a client credentials scheme: the cached one until shortly before it
 * expires, else one fetched (shared by every call waiting for it). `rejected` is a token the API
 * refused: it is fetched anew unless another call already did. A message when the token endpoint fails.
 */
async function accessToken(
  upstream: Upstream,
  need: TokenNeed,
  signal: AbortSignal,
  rejected?: string,
): Promise<string | UpstreamError> {
  let cache = tokenCaches.get(upstream);
  if (cache === undefined) tokenCaches.set(upstream, (cache = new Map()));
  const key = `${need.name} ${need.scopes.join(" ")}`;
  let cached = cache.get(key);
  if (cached !== undefined && rejected !== undefined) {
    const current = await untilAborted(cached.token, signal);
    // Another call may have fetched a new token meanwhile: that one is used.
    if (cache.get(key) === cached && typeof current !== "string" && current.value === rejected) cached = undefined;
    else cached = cache.get(key);
  }
  if (cached?.expiresAt !== undefined && Date.now() >= cached.expiresAt) cached = undefined;
  if (cached === undefined) {
    const entry: CachedToken = { token: requestToken(upstream, need) };
    cached = entry;
    cache.set(key, entry);
    void entry.token.then((result) => {
      if (typeof result === "string") {
        if (cache.get(key) === entry) cache.delete(key);
      } else entry.expiresAt = result.expiresAt;
    });
  }
  const result = await untilAborted(cached.token, signal);
  return typeof result === "string" ? failure(result) : result.value;
}

/**
 * A token from the scheme's token endpoint (RFC 6749 §4.4), the client authenticated by
 * client_secret_basic (or client_secret_post), bounded by the upstream's timeout. Failures are
 * messages naming the scheme and the status, never the client's secret.
 */
async function requestToken(
  upstream: Upstream,
  { name, scheme, scopes }: TokenNeed,
): Promise<{ value: string; expiresAt: number } | string> {
  const { env } = upstream;
  const given = env[scheme.tokenUrlEnv] || scheme.tokenUrl;
  const base = upstream.baseUrl === undefined ? undefined : `${upstream.baseUrl}/`;
  if (!URL.canParse(given, base)) return `the token URL of OAuth 2 scheme ${name} is not a URL: ${given}`;
  const url = new URL(given, base);
  const what = `the token endpoint of OAuth 2 scheme ${name} (${url.origin}${url.pathname})`;
  const method = env[scheme.authMethodEnv] || "client_secret_basic";
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (scopes.length > 0) form.set("scope", scopes.join(" "));
  const headers = new Headers({ accept: "application/json", "content-type": "application/x-www-form-urlencoded" });
  const [id, secret] = [env[scheme.clientIdEnv]!, env[scheme.clientSecretEnv]!];
  if (method === "client_secret_basic") {
    // RFC 6749 §2.3.1: each form-encoded before base64.
    const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    headers.set("authorization", `Basic ${Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString("base64")}`);
  } else if (method === "client_secret_post") {
    form.set("client_id", id);
    form.set("client_secret", secret);
  } else
    return `${scheme.authMethodEnv} must be client_secret_basic or client_secret_post, not ${JSON.stringify(method)}`;
  const started = Date.now();
  // Shared by every call waiting for it, so no one call's cancellation aborts it.
  const answer = await fetchBefore(
    url,
    { method: "POST", headers, body: form.toString() },
    started + upstream.timeoutMs,
    new AbortController().signal,
  );
  if ("error" in answer)
    return answer.timedOut
      ? `${what} did not answer within ${upstream.timeoutMs} ms`
      : `${what} could not be reached: ${answer.error.message}${causeOf(answer.error)}`;
  const { response, bytes } = answer;
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof parsed === "object" && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: said below by status alone.
  }
  if (!response.ok) {
    // Only the error fields of RFC 6749 §5.2: the body might echo what was sent.
    const reason =
      typeof body.error === "string"
        ? `: ${body.error}${typeof body.error_description === "string" ? ` (${body.error_description})` : ""}`
        : "";
    return `${what} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${reason}`;
  }
  if (typeof body.access_token !== "string" || body.access_token === "")
    return `${what} answered HTTP ${response.status} without an access_token`;
  if (typeof body.token_type === "string" && body.token_type.toLowerCase() !== "bearer")
    return `${what} issued a ${body.token_type} token; only bearer tokens are sent`;
  // Fetched again shortly before it expires (a tenth of its lifetime, at most 30 s); kept until a 401 when no expires_in.
  const lifetime = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in * 1000 : Infinity;
  return { value: body.access_token, expiresAt: started + lifetime - Math.min(30_000, lifetime / 10) };
}

const idempotent = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/** Milliseconds a Retry-After header asks to wait (seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Resolves after `ms`, or rejects with the signal's reason once it is aborted. */
const sleep = (ms: number, signal: AbortSignal) =>
  untilAborted(
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
    }),
    signal,
  );

/**
 * The 2xx answer of an operation, or the tool error its failure becomes. The call has
 * `upstream.timeoutMs` in all: idempotent requests answered 429 or 503 are sent again after the
 * Retry-After the API asks for (else 0.5 s, 1 s, …) while that fits in the time left; a 401 with
 * an OAuth 2 token is sent once more with a new token.
 */
async function send(
  upstream: Upstream,
  operation: OperationSpec,
  args: object,
  signal: AbortSignal,
): Promise<{ label: string; url: URL; status: number; contentType: string; bytes: Uint8Array } | UpstreamError> {
  const request = buildRequest(upstream, operation, args as Record<string, unknown>);
  if (typeof request === "string") return failure(request);
  const { url, init, tokens } = request;
  const label = `${init.method} ${url.pathname}`;
  const deadline = Date.now() + upstream.timeoutMs;
  const retries = idempotent.has(init.method!) ? (upstream.retries ?? 2) : 0;
  const used = new Map<TokenNeed, string>();
  /** The tokens a 401 refused, to be replaced on the next attempt; one refresh per call. */
  let refused: Map<TokenNeed, string> | undefined;
  let refreshed = false;
  for (let attempt = 0; ;) {
    for (const need of tokens) {
      const token = await accessToken(upstream, need, signal, refused?.get(need));
      if (typeof token !== "string") return token;
      used.set(need, token);
      init.headers.set("authorization", `Bearer ${token}`);
    }
    refused = undefined;
    const answer = await fetchBefore(url, init, deadline, signal);
    if ("error" in answer)
      return failure(
        answer.timedOut
          ? `${label}: no answer within ${upstream.timeoutMs} ms`
          : `${label}: ${answer.error.message}${causeOf(answer.error)}`,
      );
    const { response, bytes } = answer;
    if (response.status === 401 && tokens.length > 0 && !refreshed) {
      refreshed = true;
      refused = new Map(used);
      continue;
    }
    let note = "";
    if ((response.status === 429 || response.status === 503) && attempt < retries) {
      const asked = retryAfter(response.headers.get("retry-after"));
      const delay = asked ?? 500 * 2 ** attempt;
      if (Date.now() + delay < deadline) {
        attempt++;
        await sleep(delay, signal);
        continue;
      }
      note = ` (not retried: ${asked === undefined ? "no time left" : `its Retry-After of ${Math.ceil(asked / 1000)} s is beyond what is left of the ${upstream.timeoutMs} ms timeout`})`;
    } else if (attempt > 0 && !response.ok) note = ` (after ${attempt + 1} attempts)`;
    const contentType = response.headers.get("content-type") ?? "";
    if (!response.ok) {
      const limit = upstream.excerptChars ?? 2000;
      const body = new TextDecoder().decode(bytes);
      const excerpt = body.length > limit ? `${body.slice(0, limit)}… (${body.length - limit} more characters)` : body;
      return failure(
        `${label} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${note}${excerpt === "" ? "" : `: ${excerpt}`}`,
      );
    }
    return { label, url, status: response.status, contentType, bytes };
  }
}

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
