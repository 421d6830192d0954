// MCP Apps in the manifest (`apps:`, tools' `ui:`): bad declarations fail through the real
// CLI with exact `file:line:col` messages and write nothing; a good one generates code
// that compiles under strict settings and serves each app's HTML byte for byte, with its
// `_meta.ui`, the tools' `_meta.ui` in exactly the revisions whose types have `_meta`, and
// the extension in server/discover only.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { firstInvalidUtf8, maxAppHtmlBytes } from "../../generator/model/apps.js";
import { runCliAsync, tempProject } from "../support/generate.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const head = (protocol: string, ...body: string[]) =>
  ["mcpgen: 1", 'server: { name: demo, version: "1.0.0" }', `protocol: ${protocol}`, ...body, ""].join("\n");
/** A manifest whose body starts on line 4 (one revision keeps runs short). */
const manifest = (...body: string[]) => head("2025-06-18", ...body);
const page = "<!doctype html><html><head></head><body>app</body></html>\n";

interface BadCase {
  readonly name: string;
  readonly manifest: string;
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Exact stderr lines (without the `mcp-gen: ` prefix). */
  readonly stderr: readonly string[];
}

const cases: BadCase[] = [
  {
    name: "an html file that does not exist",
    manifest: manifest("apps:", "  panel: { html: ./ui/missing.html }"),
    stderr: ['mcp.yaml:5:18: html file "./ui/missing.html" does not exist; the path is relative to the manifest'],
  },
  {
    name: "an html file that is not UTF-8",
    manifest: manifest("apps:", "  panel: { html: panel.html }"),
    files: {
      "panel.html": Buffer.concat([Buffer.from("<!doctype html>\n<p>caf"), Buffer.from([0xe9]), Buffer.from("</p>\n")]),
    },
    stderr: [
      'mcp.yaml:5:18: html file "panel.html" is not valid UTF-8: byte 0xe9 at offset 22 (line 2); save it as UTF-8',
    ],
  },
  {
    name: "an html file over the size limit",
    manifest: manifest("apps:", "  panel: { html: big.html }"),
    files: { "big.html": "x".repeat(maxAppHtmlBytes + 1) },
    stderr: [
      `mcp.yaml:5:18: html file "big.html" has ${maxAppHtmlBytes + 1} bytes; an app's HTML may have at most ${maxAppHtmlBytes} bytes (1 MiB), since hosts fetch it whole`,
    ],
  },
  {
    name: "an html path outside the manifest's folder, and a folder",
    manifest: manifest("apps:", "  outside: { html: ../elsewhere.html }", "  folder: { html: ./ui }"),
    files: { "ui/panel.html": page },
    stderr: [
      'mcp.yaml:5:20: html "../elsewhere.html" is outside the manifest\'s folder; app files must be inside it',
      'mcp.yaml:6:19: html "./ui" is not a file',
    ],
  },
  {
    name: "csp domains that are not origins",
    manifest: manifest(
      "apps:",
      "  panel:",
      "    html: panel.html",
      "    csp:",
      '      connectDomains: [api.example.com, "https://api.example.com/v1", "https://ok.example.com:8443"]',
      '      resourceDomains: ["https://*.cdn.example.com", "ftp://files.example.com", "https://a.example.com;script-src *", "https://b.example.com:70000"]',
    ),
    files: { "panel.html": page },
    stderr: [
      'mcp.yaml:8:24: csp.connectDomains: "api.example.com" is not an origin: write scheme://host[:port] with scheme https, http, wss or ws (wildcard subdomains as https://*.example.com); add the scheme, e.g. "https://api.example.com"',
      'mcp.yaml:8:41: csp.connectDomains: "https://api.example.com/v1" is not an origin: write scheme://host[:port] with scheme https, http, wss or ws (wildcard subdomains as https://*.example.com); drop the path: hosts allow whole origins',
      'mcp.yaml:9:54: csp.resourceDomains: "ftp://files.example.com" is not an origin: write scheme://host[:port] with scheme https, http, wss or ws (wildcard subdomains as https://*.example.com)',
      'mcp.yaml:9:81: csp.resourceDomains: "https://a.example.com;script-src *" is not an origin: write scheme://host[:port] with scheme https, http, wss or ws (wildcard subdomains as https://*.example.com)',
      'mcp.yaml:9:119: csp.resourceDomains: "https://b.example.com:70000" has port 70000; ports go up to 65535',
    ],
  },
  {
    name: "a tool naming an app that is not declared (with a suggestion)",
    manifest: manifest(
      "apps:",
      "  forecast_panel: { html: panel.html }",
      "tools:",
      "  get_forecast:",
      "    ui: forecast_pannel",
    ),
    files: { "panel.html": page },
    stderr: ['mcp.yaml:8:9: tool "get_forecast": no app "forecast_pannel" in `apps:` (did you mean "forecast_panel"?)'],
  },
  {
    name: "a tool's ui naming an app and declaring app fields; one with neither",
    manifest: manifest(
      "apps:",
      "  panel: { html: panel.html }",
      "tools:",
      "  one:",
      "    ui: { app: panel, prefersBorder: true, visibility: [app] }",
      "  two:",
      "    ui: { visibility: [model] }",
    ),
    files: { "panel.html": page },
    stderr: [
      'mcp.yaml:8:23: tool "one": `ui` names the app "panel" and declares `prefersBorder` too; set those on the app in `apps:`, or drop `app` to declare an app of this tool\'s own',
      'mcp.yaml:10:5: tool "two": `ui` needs either `app` (the name of an entry of `apps:`) or `html` (a file of its own)',
    ],
  },
  {
    name: "ui on a manifest whose revisions have no _meta on tools",
    manifest: head(
      "[2025-03-26, 2024-11-05]",
      "apps:",
      "  panel: { html: panel.html }",
      "tools:",
      "  show:",
      "    ui: panel",
    ),
    files: { "panel.html": page },
    stderr: [
      'mcp.yaml:8:5: tool "show" declares `ui`, but tools carry the app\'s URI in _meta from protocol 2025-06-18 on and the manifest generates for 2025-03-26, 2024-11-05; add a later revision to `protocol`',
    ],
  },
  {
    name: "two apps and a resource claiming one uri",
    manifest: manifest(
      "resources:",
      '  page: { uri: "ui://demo/page" }',
      "apps:",
      '  page: { html: panel.html, uri: "ui://demo/page" }',
      '  other: { html: panel.html, uri: "ui://demo/x" }',
      '  third: { html: panel.html, uri: "ui://demo/x" }',
    ),
    files: { "panel.html": page },
    stderr: [
      'mcp.yaml:7:34: app uri "ui://demo/page" is already used by a resource of `resources:`; give each app its own `uri`',
      'mcp.yaml:9:35: app uri "ui://demo/x" is already used by the app at 8:35; give each app its own `uri`',
    ],
  },
  {
    name: "shape: a uri that is not ui://, an unknown visibility, an unknown permission",
    manifest: manifest(
      "apps:",
      '  panel: { html: panel.html, uri: "https://example.com/panel", permissions: [camera, usb] }',
      "tools:",
      "  show:",
      "    ui: { app: panel, visibility: [user] }",
    ),
    files: { "panel.html": page },
    stderr: [
      'mcp.yaml:5:35: "uri" must match ^ui://.',
      'mcp.yaml:5:86: item 2 of "permissions" must be one of: camera, microphone, geolocation, clipboardWrite',
      'mcp.yaml:8:36: item 1 of "visibility" must be one of: model, app',
    ],
  },
];

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

describe("bad app declarations", () => {
  describe.concurrent("each fails with its exact messages and writes nothing", () => {
    for (const c of cases) {
      it(c.name, async () => {
        const project = tempProject({ "mcp.yaml": c.manifest, ...c.files });
        projects.push(project);
        const run = await runCliAsync(["mcp.yaml", "--out", "out"], project);
        expect({ exit: run.status, stderr: run.stderr.split("\n").filter((l) => l !== "") }).toEqual({
          exit: 1,
          stderr: c.stderr.map((line) => `mcp-gen: ${line}`),
        });
        expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(existsSync(join(project, "out"))).toBe(false);
      });
    }
  });
});

describe("an html file that is not an HTML document", () => {
  it("is a warning, an error with --strict", async () => {
    const project = tempProject({
      "mcp.yaml": manifest("apps:", "  panel: { html: panel.ts }"),
      "panel.ts": "console.log('not a page');\n",
    });
    projects.push(project);
    const message =
      'mcp-gen: mcp.yaml:5:18: warning: html file "panel.ts" does not look like an HTML document (no <!doctype html> or <html>); hosts render the file as the app\'s page';
    const lax = await runCliAsync(["mcp.yaml", "--out", "out"], project);
    expect({ exit: lax.status, stderr: lax.stderr.trim() }).toEqual({ exit: 0, stderr: message });
    const strict = await runCliAsync(["mcp.yaml", "--out", "strict", "--strict"], project);
    expect(strict.status).toBe(1);
    expect(existsSync(join(project, "strict"))).toBe(false);
  });
});

describe("firstInvalidUtf8", () => {
  it.each([
    ["ASCII", [0x61, 0x62], undefined],
    ["two-, three- and four-byte characters", [...Buffer.from("é€😀")], undefined],
    ["a lone continuation byte", [0x61, 0x80], 1],
    ["an overlong encoding of '/'", [0xc0, 0xaf], 0],
    ["a UTF-16 surrogate (U+D800)", [0xed, 0xa0, 0x80], 0],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["a truncated sequence at the end", [0x61, 0xe2, 0x82], 1],
    ["Latin-1 é between ASCII", [0x63, 0x61, 0x66, 0xe9, 0x21], 3],
    ["an invalid byte after a byte order mark", [0xef, 0xbb, 0xbf, 0x61, 0xff], 4],
    ["a U+FFFD written out, then an invalid byte", [0xef, 0xbf, 0xbd, 0xff], 3],
  ])("%s", (_name, bytes, expected) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(expected);
    // Agrees with the platform's strict decoder on whether the bytes are UTF-8.
    const strict = () => new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
    if (expected === undefined) expect(strict).not.toThrow();
    else expect(strict).toThrow();
  });
});

// ------------------------------------------------------------------ a good manifest
/** Every character that must survive being inlined as a string literal. */
const hostileHtml =
  "<!doctype html>\n<html><head><title>*/ `${x}` \" ' \\ \u2028 \u2029 </script> café 😀</title></head>\n<body><script>const a = `${1}`; /* */</script></body></html>\n";
const sharedHtml = "<!doctype html><html><head></head><body>shared</body></html>\n";
const goodManifest = [
  "mcpgen: 1",
  'server: { name: demo, version: "1.0.0" }',
  "protocol: [2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05]",
  "output: ./mcp",
  "apps:",
  "  shared:",
  "    html: ui/shared.html",
  "    title: Shared view",
  "tools:",
  "  show:",
  "    description: Shows things",
  "    ui: shared",
  "  refresh:",
  "    description: Called by the view only",
  "    ui: { app: shared, visibility: [app] }",
  "  own:",
  "    ui:",
  "      html: ui/own.html",
  '      uri: "ui://demo/own-view"',
  "      description: A view of its own",
  '      csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com"] }',
  "      permissions: [clipboardWrite]",
  "      domain: demo.example-host.com",
  "      prefersBorder: false",
  "  plain: {}",
  "",
].join("\n");
const handlersText = [
  'import type { DemoHandlers } from "./mcp/index.js";',
  "export const handlers: DemoHandlers = {",
  '  tools: { show: () => "shown", refresh: () => "refreshed", own: () => "own", plain: () => "plain" },',
  "};",
  "",
].join("\n");

type Json = Record<string, unknown>;
interface Session {
  rawRequest(method: string, params?: Json): Promise<Json>;
  readonly revision: string;
}

describe("a manifest with apps", () => {
  let project = "";

  it("generates code that compiles under strict settings", async () => {
    project = tempProject({
      "mcp.yaml": goodManifest,
      "ui/shared.html": sharedHtml,
      "ui/own.html": hostileHtml,
      "handlers.ts": handlersText,
    });
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "-q"], project);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const generated = readdirSync(join(project, "mcp")).map((f) => join(project, "mcp", f));
    const errors = typecheck([...generated, join(project, "handlers.ts")]);
    expect(errors, formatTypeErrors(errors)).toEqual([]);
  });

  it("notices an edited HTML file (--check)", async () => {
    expect(project, "the compile test must run first").not.toBe("");
    const copy = tempProject({}, project);
    projects.push(copy);
    expect((await runCliAsync(["mcp.yaml", "--check"], copy)).status).toBe(0);
    writeFileSync(join(copy, "ui", "shared.html"), sharedHtml.replace("shared", "edited"));
    const check = await runCliAsync(["mcp.yaml", "--check"], copy);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("apps.gen.ts");
  });

  const connect = async (revision: string): Promise<{ session: Session; close(): Promise<void> }> => {
    const { memoryChannel } = await import("@mcp-gen/runtime");
    const index = (await import(pathToFileURL(join(project, "mcp", "index.ts")).href)) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const { handlers } = (await import(pathToFileURL(join(project, "handlers.ts")).href)) as { handlers: unknown };
    const server = index.createDemoServer!(handlers);
    const client = (await index.connectDemoClient!(memoryChannel(server as Parameters<typeof memoryChannel>[0]), {
      revisions: [revision],
    })) as { session: Session & { close(): Promise<void> } };
    return { session: client.session, close: () => client.session.close() };
  };

  const sharedMeta = { ui: { resourceUri: "ui://demo/shared" }, "ui/resourceUri": "ui://demo/shared" };
  const ownUi = {
    csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com"] },
    permissions: { clipboardWrite: {} },
    domain: "demo.example-host.com",
    prefersBorder: false,
  };

  it.each(["2026-07-28", "2025-11-25", "2025-06-18"])(
    "serves the apps and the tools' _meta.ui under %s",
    async (revision) => {
      const { session, close } = await connect(revision);
      try {
        expect(session.revision).toBe(revision);
        const { tools } = (await session.rawRequest("tools/list", {})) as { tools: Json[] };
        expect(Object.fromEntries(tools.map((t) => [t.name, t._meta]))).toEqual({
          show: sharedMeta,
          refresh: {
            ui: { resourceUri: "ui://demo/shared", visibility: ["app"] },
            "ui/resourceUri": "ui://demo/shared",
          },
          own: { ui: { resourceUri: "ui://demo/own-view" }, "ui/resourceUri": "ui://demo/own-view" },
          plain: undefined,
        });
        const { resources } = (await session.rawRequest("resources/list", {})) as { resources: Json[] };
        expect(resources).toEqual([
          { uri: "ui://demo/shared", name: "shared", title: "Shared view", mimeType: "text/html;profile=mcp-app" },
          {
            uri: "ui://demo/own-view",
            name: "own",
            description: "A view of its own",
            mimeType: "text/html;profile=mcp-app",
            _meta: { ui: ownUi },
          },
        ]);
        const own = (await session.rawRequest("resources/read", { uri: "ui://demo/own-view" })) as { contents: Json[] };
        expect(own.contents).toEqual([
          { uri: "ui://demo/own-view", mimeType: "text/html;profile=mcp-app", text: hostileHtml, _meta: { ui: ownUi } },
        ]);
        const shared = (await session.rawRequest("resources/read", { uri: "ui://demo/shared" })) as {
          contents: Json[];
        };
        expect(shared.contents).toEqual([
          { uri: "ui://demo/shared", mimeType: "text/html;profile=mcp-app", text: sharedHtml },
        ]);
        if (revision === "2026-07-28") {
          const discovered = (await session.rawRequest("server/discover", {})) as { capabilities: Json };
          expect(discovered.capabilities.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
        }
      } finally {
        await close();
      }
    },
  );

  it("leaves _meta out of the listings of revisions whose Tool and Resource types have none", async () => {
    const { session, close } = await connect("2025-03-26");
    try {
      const { tools } = (await session.rawRequest("tools/list", {})) as { tools: Json[] };
      expect(tools.every((t) => !("_meta" in t))).toBe(true);
      const { resources } = (await session.rawRequest("resources/list", {})) as { resources: Json[] };
      expect(resources.map((r) => [r.uri, "_meta" in r])).toEqual([
        ["ui://demo/shared", false],
        ["ui://demo/own-view", false],
      ]);
    } finally {
      await close();
    }
  });

  it("writes the HTML as data: once, as string literals of bounded width, in apps.gen.ts, which server.gen.ts imports and index.ts does not export", () => {
    const apps = readFileSync(join(project, "mcp", "apps.gen.ts"), "utf8");
    const table = apps.slice(apps.indexOf("export const appHtml"));
    // A page longer than a line is an array of literals, joined when the module loads.
    const entry = table.slice(table.indexOf(`"ui://demo/own-view": [\n`));
    const pieces = entry.slice(entry.indexOf("["), entry.indexOf(`].join("")`) + 1).replace(/,\s*\]$/, "]");
    expect(pieces).not.toMatch(/[\u2028\u2029]/);
    expect((JSON.parse(pieces) as string[]).join("")).toBe(hostileHtml);
    expect(table.split("\n").filter((line) => line.length > 120)).toEqual([]);
    expect(apps.split(`"ui://demo/own-view"`).length).toBe(2);
    expect(table).toContain("// ui/own.html\n");
    const server = readFileSync(join(project, "mcp", "server.gen.ts"), "utf8");
    expect(server).toContain('import { appHtml } from "./apps.gen.js";');
    expect(server).not.toContain("café");
    expect(readFileSync(join(project, "mcp", "index.ts"), "utf8")).not.toContain("appHtml");
  });

  it("names each inlined page and its sha256 in the banner of every generated file, and regenerates over them", async () => {
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
    for (const file of readdirSync(join(project, "mcp"))) {
      const banner = readFileSync(join(project, "mcp", file), "utf8").split("// Regenerate:")[0]!;
      expect(banner).toContain(`// App ui://demo/own-view: ui/own.html sha256 ${sha256(hostileHtml)}\n`);
      expect(banner).toMatch(new RegExp(`// App ui://\\S+: ui/shared\\.html sha256 ${sha256(sharedHtml)}\\n`));
    }
    // The banner with App lines is still recognised as this manifest's own: a second run replaces the files.
    writeFileSync(join(project, "ui", "shared.html"), sharedHtml.replace("shared", "edited"));
    const again = await runCliAsync(["mcp.yaml", "-q"], project);
    expect(again.stderr).toBe("");
    expect(again.status).toBe(0);
    expect(readFileSync(join(project, "mcp", "index.ts"), "utf8")).toContain(
      sha256(sharedHtml.replace("shared", "edited")),
    );
  });
});
