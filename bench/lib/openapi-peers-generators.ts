// The three OpenAPI → MCP generators of the side-by-side bench (bench/openapi-peers.ts): how each
// generates a project from a document, type-checks it, serves it over stdio and is pointed at an
// upstream with credentials, each in its own documented way.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export interface Command {
  readonly args: string[];
  readonly cwd: string;
  readonly env?: Record<string, string>;
}

export interface Generator {
  readonly name: string;
  /** The commands that write the project into `dir` (run in order, timed together); `baseUrl`
   * only for a generator that can take the upstream's URL at generation time alone. */
  generate(document: string, dir: string, baseUrl?: string): Command[];
  /** Whether the upstream URL can only be set at generation time (then the Prism run regenerates). */
  readonly bakesBaseUrl: boolean;
  /** Whether its tools are the API's operations, so calling each one at Prism means something
   * (not so for mcp-gen's catalog mode, whose three tools find, describe and call operations). */
  readonly callsAtPrism: boolean;
  /** Which tsconfig the strict type-check uses, for the report. */
  readonly tsconfig: string;
  /** The type-check command (no emit). */
  typecheck(dir: string): Command;
  /** The stdio server: node arguments and working directory. */
  serve(dir: string): Command;
  /** Environment variables that point the server at `url` with a dummy value for every credential. */
  upstream(dir: string, url: string, document: unknown): Record<string, string>;
}

export interface GeneratorPaths {
  readonly root: string;
  readonly peers: string;
  readonly schemaDir: string;
}

const secret = "bench-secret";

/** `openapi-mcp-generator`'s credential variables: one per security scheme, by its type. */
function schemeVariables(document: unknown): Record<string, string> {
  const schemes =
    (document as { components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> } })?.components
      ?.securitySchemes ?? {};
  const env: Record<string, string> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    const key = name.replace(/[^a-zA-Z0-9]/g, "_").toUpperCase();
    if (scheme.type === "apiKey") env[`API_KEY_${key}`] = secret;
    else if (scheme.type === "http" && scheme.scheme?.toLowerCase() === "basic") {
      env[`BASIC_USERNAME_${key}`] = "bench";
      env[`BASIC_PASSWORD_${key}`] = secret;
    } else if (scheme.type === "http") env[`BEARER_TOKEN_${key}`] = secret;
    else if (scheme.type === "oauth2") env[`OAUTH_TOKEN_${key}`] = secret;
    else if (scheme.type === "openIdConnect") env[`OPENID_TOKEN_${key}`] = secret;
  }
  return env;
}

const kubbConfig = `// Written by bench/openapi-peers.ts: Kubb 4's MCP plugin with the plugins it builds on.
import { defineConfig } from "@kubb/core";
import { pluginClient } from "@kubb/plugin-client";
import { pluginMcp } from "@kubb/plugin-mcp";
import { pluginOas } from "@kubb/plugin-oas";
import { pluginTs } from "@kubb/plugin-ts";
import { pluginZod } from "@kubb/plugin-zod";

const baseURL = process.env.KUBB_BASE_URL;
export default defineConfig({
  root: ".",
  input: { path: process.env.KUBB_INPUT! },
  output: { path: "./src", clean: true, format: false, lint: false },
  plugins: [pluginOas(), pluginTs(), pluginZod(), pluginClient(baseURL ? { baseURL } : {}), pluginMcp(baseURL ? { client: { baseURL } } : {})],
});
`;

/** Kubb writes no tsconfig: a strict one for the ESM + .ts-extension imports it emits. */
const kubbTsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    esModuleInterop: true,
    resolveJsonModule: true,
  },
  include: ["src/**/*"],
};

export function generators(paths: GeneratorPaths): Generator[] {
  const peerBin = (name: string) => join(paths.peers, "node_modules/.bin", name);
  const peerTsc = join(paths.peers, "node_modules/typescript/bin/tsc");
  const cli = join(paths.root, "dist/generator/cli.js");
  const mcpGen = (name: string, importOptions: string[]): Generator => ({
    name,
    bakesBaseUrl: false,
    callsAtPrism: importOptions.length === 0,
    generate: (document, dir) => [
      { args: [cli, "import", "openapi", document, "--out", dir, "-q", ...importOptions], cwd: paths.root },
      { args: [cli, "--schema-dir", paths.schemaDir, "-q"], cwd: dir },
    ],
    tsconfig:
      "its own (`import` writes init's: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess), TypeScript 6.0.3 as its package.json asks",
    typecheck: (dir) => ({
      args: [join(paths.root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."],
      cwd: dir,
    }),
    serve: (dir) => ({ args: ["--import", "tsx", "src/main.ts"], cwd: dir }),
    upstream: (dir, url) => {
      const manifest = parse(readFileSync(join(dir, "mcp.yaml"), "utf8")) as {
        settings?: Record<string, { env?: string; secret?: boolean }>;
      };
      const env: Record<string, string> = { MCP_UPSTREAM_URL: url };
      for (const setting of Object.values(manifest.settings ?? {}))
        if (setting.secret === true && setting.env !== undefined) env[setting.env] = secret;
      return env;
    },
  });
  return [
    mcpGen("mcp-gen", []),
    // The few-tools mode for large APIs (`--tools catalog`): measured for size and compile only.
    mcpGen("mcp-gen-catalog", ["--tools", "catalog"]),
    {
      name: "openapi-mcp-generator",
      bakesBaseUrl: false,
      callsAtPrism: true,
      generate: (document, dir) => [
        { args: [peerBin("openapi-mcp-generator"), "-i", document, "-o", dir], cwd: paths.peers },
      ],
      tsconfig: "its own (strict, Node16 modules), TypeScript 5.9.3 (its package.json asks ^5.8.3)",
      typecheck: (dir) => ({ args: [peerTsc, "--noEmit", "-p", "."], cwd: dir }),
      serve: (dir) => ({ args: ["--import", "tsx", "src/index.ts"], cwd: dir }),
      upstream: (_dir, url, document) => ({ API_BASE_URL: url, ...schemeVariables(document) }),
    },
    {
      name: "kubb",
      bakesBaseUrl: true,
      callsAtPrism: true,
      generate: (document, dir, baseUrl) => {
        writeFileSync(join(dir, "kubb.config.ts"), kubbConfig);
        writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(kubbTsconfig, null, 2));
        writeFileSync(
          join(dir, "bench-main.ts"),
          '// Written by bench/openapi-peers.ts: Kubb emits startServer() but no entry.\nimport { startServer } from "./src/mcp/server.ts";\nvoid startServer();\n',
        );
        return [
          {
            args: [peerBin("kubb"), "generate"],
            cwd: dir,
            env: { KUBB_INPUT: document, ...(baseUrl ? { KUBB_BASE_URL: baseUrl } : {}) },
          },
        ];
      },
      tsconfig: "none written: the bench's strict one (strict, bundler resolution, .ts imports), TypeScript 5.9.3",
      typecheck: (dir) => ({ args: [peerTsc, "--noEmit", "-p", "."], cwd: dir }),
      serve: (dir) => ({ args: ["--import", "tsx", "bench-main.ts"], cwd: dir }),
      // Kubb has no run-time base URL nor credentials: the base URL is baked in at generation
      // (pluginClient's baseURL), so the bench regenerates with KUBB_BASE_URL for the Prism run.
      upstream: () => ({}),
    },
  ];
}
