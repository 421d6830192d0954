// What a document's external `$ref`s may make `mcp-gen import openapi` read, through the built
// CLI: a hostile document (a downloaded file, or a URL) whose `$ref`s point at files outside its
// folder, hidden files, other schemes, internal addresses or other origins is refused at the
// `$ref`, and nothing it points at reaches a written file; a real multi-file document still imports.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../support/paths.js";

const root = join(repoRoot, "test", "import", ".out", "external-refs");
const secret = "SECRET-7f3a9c";

/** Writes files (objects as YAML) under a fresh folder; returns its path. */
function folder(name: string, files: Record<string, unknown>): string {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === "string" ? content : YAML.stringify(content));
  }
  return dir;
}

/** `mcp-gen import openapi <source> --out out …` in `cwd`, run asynchronously (the test's own server must answer meanwhile). */
async function importFrom(cwd: string, source: string, ...flags: string[]) {
  const child = spawn(process.execPath, [cliPath, "import", "openapi", source, "--out", "out", "-q", ...flags], {
    cwd,
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill(), 60_000);
  const [status] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  const out = join(cwd, "out");
  return { status, stderr, out, written: existsSync(out) ? allText(out) : "" };
}

/** Every file's text under a folder, to look for what must not be there. */
const allText = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n");

/** A one-operation document whose response schema (and a parameter's) are these `$ref`s. */
const documentWith = (...refs: string[]) => ({
  openapi: "3.1.0",
  info: { title: "Refs", version: "1" },
  paths: {
    "/x": {
      get: {
        operationId: "getX",
        parameters: refs.slice(1).map((ref, i) => ({ name: `p${i}`, in: "query", schema: { $ref: ref } })),
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: refs[0] } } } } },
      },
    },
  },
});

const secretSchema = { type: "object", properties: { token: { type: "string", const: secret } } };

describe("import openapi: external $refs of a document read from a file", () => {
  it("refuses files outside the document's folder (relative, absolute, file: URL, symbolic link), located", async () => {
    const dir = folder("outside", {
      "secret/creds.yaml": secretSchema,
      "api/doc.yaml": documentWith(
        "../secret/creds.yaml",
        "../../outside/secret/creds.yaml#/properties/token",
        join(root, "outside", "secret", "creds.yaml"),
        `file://${join(root, "outside", "secret", "creds.yaml")}`,
        "linked.yaml",
        "/proc/self/environ",
      ),
    });
    symlinkSync(join(dir, "secret", "creds.yaml"), join(dir, "api", "linked.yaml"));
    const result = await importFrom(dir, "api/doc.yaml");
    expect(result.status).toBe(1);
    const outside = `is outside the document's folder ${join(dir, "api")}; --allow-ref ${join(dir, "secret")} allows its folder`;
    expect(result.stderr).toContain(
      `api/doc.yaml:36:23: $ref "../secret/creds.yaml" refused: ${join(dir, "secret", "creds.yaml")} ${outside}`,
    );
    for (const ref of ["../../outside/secret/creds.yaml#/properties/token", "linked.yaml"])
      expect(result.stderr).toContain(`$ref "${ref}" refused: ${join(dir, "secret", "creds.yaml")} ${outside}`);
    expect(result.stderr).toMatch(/doc\.yaml:\d+:\d+: \$ref "file:\/\/[^"]+creds\.yaml" refused: /);
    expect(result.stderr).toMatch(
      /\$ref "\/proc\/self\/environ" refused: \/proc\/\S+ is outside the document's folder/,
    );
    expect(result.stderr.split("\n").filter((line) => line.includes("refused:"))).toHaveLength(6);
    expect(existsSync(result.out)).toBe(false);
    expect(result.written).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  });

  it("refuses hidden files and files not named .json/.yaml/.yml inside its folder", async () => {
    const dir = folder("hidden", {
      ".env": `TOKEN=${secret}\n`,
      ".ssh/config.yaml": secretSchema,
      id_rsa: `-----BEGIN KEY-----\nkey: ${secret}\n`,
      "doc.yaml": documentWith(".ssh/config.yaml", ".env", "id_rsa"),
    });
    const result = await importFrom(dir, "doc.yaml");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `$ref ".ssh/config.yaml" refused: .ssh/config.yaml is hidden (a name in its path starts with ".")`,
    );
    expect(result.stderr).toContain(`$ref ".env" refused: .env is hidden`);
    expect(result.stderr).toContain(
      `$ref "id_rsa" refused: id_rsa is not named *.json, *.yaml or *.yml; --allow-ref ${dir} allows its folder`,
    );
    expect(existsSync(result.out)).toBe(false);
  });

  it("refuses http(s) $refs to loopback, private and link-local addresses, by literal or by name, without connecting", async () => {
    const server = await serve({ "/secret.yaml": () => ({ body: YAML.stringify(secretSchema) }) });
    try {
      const port = new URL(server.url).port;
      const dir = folder("internal", {
        "doc.yaml": documentWith(
          `${server.url}/secret.yaml`,
          `http://localhost:${port}/secret.yaml`,
          "http://169.254.169.254/latest/meta-data/",
          "http://[::1]:6379/",
          "http://10.1.2.3/x.yaml",
        ),
      });
      const result = await importFrom(dir, "doc.yaml");
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        `$ref "${server.url}/secret.yaml" refused: 127.0.0.1 is a private, loopback or link-local address; --allow-ref ${server.url}/ allows it`,
      );
      expect(result.stderr).toMatch(
        new RegExp(
          `\\$ref "http://localhost:${port}/secret.yaml" refused: localhost resolves to (127\\.0\\.0\\.1|::1), which is a private`,
        ),
      );
      expect(result.stderr).toContain(
        `$ref "http://169.254.169.254/latest/meta-data/" refused: 169.254.169.254 is a private`,
      );
      expect(result.stderr).toContain(`$ref "http://[::1]:6379/" refused: ::1 is a private`);
      expect(result.stderr).toContain(`$ref "http://10.1.2.3/x.yaml" refused: 10.1.2.3 is a private`);
      expect(server.seen).toEqual([]);
      expect(existsSync(result.out)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it("reads what --allow-ref names, and says so in the Regenerate line", async () => {
    const server = await serve({
      "/shared/error.yaml": () => ({ body: "type: object\nproperties: { code: { type: integer } }\n" }),
    });
    try {
      const dir = folder("allowed", {
        "shared/pet.yaml": { type: "object", properties: { name: { type: "string" } } },
        "api/doc.yaml": documentWith("../shared/pet.yaml", `${server.url}/shared/error.yaml`),
      });
      const result = await importFrom(
        dir,
        "api/doc.yaml",
        "--allow-ref",
        "shared",
        "--allow-ref",
        `${server.url}/shared/`,
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const manifest = readFileSync(join(result.out, "mcp.yaml"), "utf8");
      expect(manifest).toContain(
        `# Regenerate: npx mcp-gen import openapi ../api/doc.yaml --allow-ref shared --allow-ref ${server.url}/shared/`,
      );
      expect(manifest).toContain("name:\n");
      expect(manifest).toContain("code:\n");
      expect(server.seen).toEqual(["/shared/error.yaml"]);
    } finally {
      await server.close();
    }
  });

  it("still imports a multi-file document: a sibling file, a subfolder, and a $ref back up within the folder", async () => {
    const dir = folder("multi-file", {
      "api/doc.yaml": documentWith("schemas/pet.yaml", "common.yaml#/components/schemas/Id"),
      "api/common.yaml": { components: { schemas: { Id: { type: "integer", minimum: 1 } } } },
      "api/schemas/pet.yaml": {
        type: "object",
        properties: { id: { $ref: "../common.yaml#/components/schemas/Id" }, tag: { $ref: "tag.json" } },
      },
      "api/schemas/tag.json": JSON.stringify({ type: "string", maxLength: 20 }),
    });
    const result = await importFrom(dir, "api/doc.yaml");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const tool = (YAML.parse(readFileSync(join(result.out, "mcp.yaml"), "utf8")) as { tools: Record<string, unknown> })
      .tools.getX;
    const text = JSON.stringify(tool);
    expect(text).toContain('"minimum":1');
    expect(text).toContain('"maxLength":20');
  });
});

describe("import openapi: external $refs of a document read from a URL", () => {
  let api: Served;
  let other: Served;
  beforeAll(async () => {
    other = await serve({ "/secret.yaml": () => ({ body: YAML.stringify(secretSchema) }) });
    api = await serve({
      "/api/doc.yaml": () => ({ body: YAML.stringify(documentWith("schemas/pet.yaml", "/common.yaml#/Id")) }),
      "/api/schemas/pet.yaml": () => ({
        body: "type: object\nproperties: { id: { $ref: '../../common.yaml#/Id' } }\n",
      }),
      "/common.yaml": () => ({ body: "Id: { type: integer, minimum: 7 }\n" }),
      "/moved.yaml": () => ({ status: 302, headers: { location: "/api/doc.yaml" } }),
      "/hostile.yaml": () => ({
        body: YAML.stringify(
          documentWith(
            `file://${join(root, "url-secret", "creds.yaml")}`,
            `${other.url}/secret.yaml`,
            "http://169.254.169.254/latest/meta-data/",
            "/redirect.yaml",
          ),
        ),
      }),
      "/redirect.yaml": () => ({ status: 302, headers: { location: `${other.url}/secret.yaml` } }),
      "/huge.yaml": () => ({ body: YAML.stringify(documentWith("/endless.yaml")) }),
      "/endless.yaml": "endless",
      "/slow.yaml": () => ({ body: YAML.stringify(documentWith("/silent.yaml")) }),
      "/silent.yaml": "silent",
      "/many.yaml": () => ({
        body: YAML.stringify(documentWith(...Array.from({ length: 1_001 }, (_, i) => `/n/${i}.yaml`))),
      }),
    });
    folder("url-secret", { "creds.yaml": secretSchema });
  });
  afterAll(async () => {
    await api.close();
    await other.close();
  });

  it("reads $refs on the document's own origin, loopback included, also after a redirect", async () => {
    const dir = folder("url-same-origin", {});
    for (const source of [`${api.url}/api/doc.yaml`, `${api.url}/moved.yaml`]) {
      const result = await importFrom(dir, source);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(JSON.stringify(YAML.parse(readFileSync(join(result.out, "mcp.yaml"), "utf8")))).toContain('"minimum":7');
    }
  });

  it("refuses local files, other origins, internal addresses and redirects elsewhere, located", async () => {
    other.seen.length = 0;
    const dir = folder("url-hostile", {});
    const result = await importFrom(dir, `${api.url}/hostile.yaml`);
    expect(result.status).toBe(1);
    const source = `${api.url}/hostile.yaml`;
    expect(result.stderr).toMatch(
      new RegExp(
        `${escape(source)}:\\d+:\\d+: \\$ref "file://[^"]+creds.yaml" refused: a document read from a URL reads no local file`,
      ),
    );
    expect(result.stderr).toContain(
      `$ref "${other.url}/secret.yaml" refused: ${other.url}/secret.yaml is not on the document's origin (${api.url}); --allow-ref ${other.url}/ allows that origin`,
    );
    expect(result.stderr).toContain(
      `$ref "http://169.254.169.254/latest/meta-data/" refused: http://169.254.169.254/latest/meta-data/ is not on the document's origin`,
    );
    expect(result.stderr).toContain(
      `$ref "/redirect.yaml" refused: redirected to ${other.url}/secret.yaml: ${other.url}/secret.yaml is not on the document's origin`,
    );
    expect(other.seen).toEqual([]);
    expect(existsSync(result.out)).toBe(false);
    expect(result.written).not.toContain(secret);
  });

  it("refuses an external document larger than 64 MiB without reading all of it", async () => {
    const result = await importFrom(folder("url-huge", {}), `${api.url}/huge.yaml`);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /:\d+:\d+: \$ref "\/endless\.yaml" refused: its answer is larger than 67,108,864 bytes/,
    );
  });

  it("refuses an external document that does not arrive within 30 s", { timeout: 90_000 }, async () => {
    const result = await importFrom(folder("url-slow", {}), `${api.url}/slow.yaml`);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/:\d+:\d+: \$ref "\/silent\.yaml" refused: no complete answer within 30 s/);
  });

  it("refuses the 1,001st external document", async () => {
    const result = await importFrom(folder("url-many", {}), `${api.url}/many.yaml`);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /:\d+:\d+: \$ref "\/n\/\d+\.yaml" refused: the document reads more than 1000 external documents/,
    );
    expect(result.stderr.split("\n").filter((line) => line.includes("refused:"))).toHaveLength(1);
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Served {
  readonly url: string;
  readonly seen: string[];
  close(): Promise<void>;
}

interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}
type Route = (() => Reply) | "endless" | "silent";

/**
 * A node:http server on 127.0.0.1 answering these paths, and /n/<anything> with a small schema
 * (404 otherwise); "endless" streams YAML until the client leaves, "silent" sends its headers only.
 */
async function serve(routes: Record<string, Route>): Promise<Served> {
  const seen: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    seen.push(request.url ?? "");
    const route =
      routes[request.url ?? ""] ??
      (request.url?.startsWith("/n/") ? (): Reply => ({ body: "type: string\n" }) : undefined);
    if (route === "silent") return response.writeHead(200, { "content-type": "application/yaml" }).flushHeaders();
    if (route === "endless") {
      response.writeHead(200, { "content-type": "application/yaml" });
      const line = Buffer.from(`x${"-".repeat(1022)}: 1\n`.repeat(1024));
      const more = () => {
        while (!response.destroyed && response.write(line));
        if (!response.destroyed) response.once("drain", more);
      };
      response.on("close", () => response.destroy());
      more();
      return;
    }
    const answer = route?.() ?? { status: 404, body: "not found" };
    response.writeHead(answer.status ?? 200, { "content-type": "application/yaml", ...answer.headers });
    response.end(answer.body ?? "");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
