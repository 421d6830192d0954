// A minimal MCP Apps host for the browser test (test/e2e/apps-browser.test.ts), bundled by
// esbuild into the page the test serves. It does what a chat host does for a tool with a
// UI: connects an official SDK v2 client to the MCP server (same origin, /mcp), finds the
// tool's ui:// resource in tools/list, reads it, renders it in a sandboxed iframe under the
// Content-Security-Policy its `_meta.ui.csp` allows, and connects the official AppBridge,
// which forwards the app's own tools/call requests to the server. What happened is recorded
// in `window.hostLog` for the test to read.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  type McpUiResourceCsp,
} from "@modelcontextprotocol/ext-apps/app-bridge";

interface HostLog {
  events: string[];
  error?: string;
  csp?: string;
}
const log: HostLog = { events: [] };
(window as unknown as { hostLog: HostLog }).hostLog = log;

const params = new URLSearchParams(location.search);
const toolName = params.get("tool") ?? "get_forecast";
const toolArguments = JSON.parse(params.get("arguments") ?? "{}") as Record<string, unknown>;

/**
 * The policy SEP-1865 asks hosts to apply: nothing but the page itself, plus the origins
 * the resource declares (connectDomains → connect-src, resourceDomains → script, style,
 * image, font and media sources, frameDomains → frame-src, baseUriDomains → base-uri).
 */
function contentSecurityPolicy(csp: McpUiResourceCsp | undefined): string {
  const list = (domains: readonly string[] | undefined) => (domains ?? []).join(" ");
  const resources = list(csp?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src ${resources || "'none'"}`,
    `media-src data: ${resources}`,
    `connect-src ${list(csp?.connectDomains) || "'none'"}`,
    `frame-src ${list(csp?.frameDomains) || "'none'"}`,
    `base-uri ${list(csp?.baseUriDomains) || "'none'"}`,
    "object-src 'none'",
  ]
    .map((directive) => directive.trim())
    .join("; ");
}

async function main(): Promise<void> {
  const client = new Client({ name: "apps-test-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  log.events.push(`connected to ${client.getServerVersion()?.name ?? "?"}`);

  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === toolName);
  const uri = tool && getToolUiResourceUri(tool);
  if (!uri) throw new Error(`tool ${toolName} has no _meta.ui.resourceUri`);
  log.events.push(`ui resource ${uri}`);

  const { contents } = await client.readResource({ uri });
  const content = contents[0];
  if (!content || !("text" in content) || content.mimeType !== RESOURCE_MIME_TYPE)
    throw new Error(`resource ${uri} is not ${RESOURCE_MIME_TYPE} text`);
  const ui = (content._meta as { ui?: { csp?: McpUiResourceCsp; prefersBorder?: boolean } } | undefined)?.ui;
  log.csp = contentSecurityPolicy(ui?.csp);

  // Sandboxed: scripts run, but in an opaque origin (no cookies, storage or parent DOM);
  // the CSP meta tag, first in <head>, keeps the page off the network.
  const iframe = document.createElement("iframe");
  iframe.sandbox.add("allow-scripts");
  iframe.title = "MCP App";
  iframe.style.cssText = `width: 560px; height: 260px; border: ${ui?.prefersBorder ? "1px solid #ccc" : "0"}; border-radius: 12px;`;
  document.getElementById("app")!.append(iframe);

  // The bridge listens before the page loads: the app sends ui/initialize as soon as it runs.
  const bridge = new AppBridge(client, { name: "apps-test-host", version: "1.0.0" }, { serverTools: {}, logging: {} });
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${Math.ceil(height)}px`;
  };
  bridge.oninitialized = () => {
    log.events.push("app initialized");
    // The model's call, made by the host; the app receives its input and result.
    void (async () => {
      const result = await client.callTool({ name: toolName, arguments: toolArguments });
      await bridge.sendToolInput({ arguments: toolArguments });
      await bridge.sendToolResult(result as Parameters<AppBridge["sendToolResult"]>[0]);
      log.events.push("tool result delivered");
    })().catch(fail);
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  log.events.push("bridge connected");
  iframe.srcdoc = content.text.replace(
    /<head>/i,
    (head) => `${head}<meta http-equiv="Content-Security-Policy" content="${log.csp}">`,
  );
}

function fail(error: unknown): void {
  log.error = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
}

main().catch(fail);
