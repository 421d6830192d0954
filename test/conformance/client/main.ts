// The client the conformance suite's client leg drives: `main.ts <server-url>`, with the
// scenario in MCP_CONFORMANCE_SCENARIO and the revision in MCP_CONFORMANCE_PROTOCOL_VERSION.
// It connects with httpChannel and ClientSession for that revision (legacy revisions
// through initialize, 2026-07-28 statelessly) and does what the scenario exercises; the
// protocol behaviour itself (headers, SSE resumption, input_required rounds) is the runtime's.
// OAuth (the auth/* scenarios) is @mcp-gen/runtime/oauth, configured as a host would: a
// redirect URI, a client metadata document URL, pre-registered credentials when the
// scenario's context carries them; the suite's authorization server approves at once, so
// "the browser" is one fetch of the authorization URL whose redirect is read, not followed.
import { ClientSession, httpChannel, type JsonObject, type Params } from "../../../runtime/index.js";
import { oauth } from "../../../runtime/oauth.js";

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
  toolCalls?: { name: string; arguments: JsonObject }[];
  client_id?: string;
  client_secret?: string;
};
if (!url || !/^https?:/.test(url)) {
  process.stderr.write("usage: main.ts <server-url>\n");
  process.exit(2);
}

/** Accepts an elicitation with every default its requested schema declares (SEP-1034). */
function acceptWithDefaults(params: Params | undefined): Params {
  const schema = params?.requestedSchema as { properties?: Record<string, { default?: unknown }> } | undefined;
  const content: JsonObject = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) content[name] = property.default as JsonObject[string];
  }
  return { action: "accept", content };
}

/** The client ID metadata document URL the suite expects (its authorization server does not fetch it). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const auth = oauth({
  redirectUri: "http://127.0.0.1:3000/callback",
  clientName: "mcp-gen-conformance-client",
  clientMetadataUrl: CLIENT_METADATA_URL,
  ...(context.client_id !== undefined
    ? { client: { client_id: context.client_id, client_secret: context.client_secret } }
    : {}),
  async redirectToAuthorization(authorizationUrl) {
    const response = await fetch(authorizationUrl, { redirect: "manual" });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    return new URL(location, authorizationUrl);
  },
});

const session = await ClientSession.connect(httpChannel(url, { auth }), {
  revisions: [revision],
  info: { name: "mcp-gen-conformance-client", version: "0.1.0" },
  capabilities: { elicitation: { form: {} } },
  requests: { "elicitation/create": (params) => acceptWithDefaults(params) },
});

const tools = () => session.listAll("tools/list", "tools");
const call = (name: string, args: JsonObject = {}) => session.rawRequest("tools/call", { name, arguments: args });

switch (scenario) {
  case "initialize":
  case "request-metadata":
  case "json-schema-ref-no-deref":
  case "http-invalid-tool-headers":
    // Listing is the exercise; a valid tool left after filtering is called.
    for (const tool of await tools()) {
      if (scenario === "http-invalid-tool-headers") await call(String(tool.name), { region: "us-west1" });
    }
    break;
  case "tools_call":
    await tools();
    await call("add_numbers", { a: 2, b: 3 });
    break;
  case "http-custom-headers":
    await tools();
    for (const { name, arguments: args } of context.toolCalls ?? []) await call(name, args);
    break;
  case "http-standard-headers": {
    for (const tool of await tools()) await call(String(tool.name));
    for (const resource of await session.listAll("resources/list", "resources"))
      await session.rawRequest("resources/read", { uri: resource.uri as string });
    for (const prompt of await session.listAll("prompts/list", "prompts"))
      await session.rawRequest("prompts/get", { name: prompt.name as string });
    break;
  }
  default:
    // elicitation-sep1034-client-defaults, sse-retry, sep-2322-client-request-state, …:
    // call every tool without arguments; the runtime answers what the server asks.
    for (const tool of await tools()) await call(String(tool.name));
}
await session.close();
