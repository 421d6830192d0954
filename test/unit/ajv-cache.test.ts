// ajv validators are reused from the disk cache as standalone code instead of being
// compiled on every run. A validator from the cache must judge exactly like one ajv has
// just compiled: same verdicts, same errors (which the manifest checks turn into messages).
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedValidator } from "../../generator/validate/ajv-cache.js";
import { manifestJsonSchema } from "../../generator/validate/manifest-shape.js";
import { cliPath, repoRoot, schemaDir } from "../support/paths.js";

const manifests: unknown[] = [
  {
    mcpgen: 1,
    server: { name: "ok", version: "1.0.0" },
    protocol: "2026-07-28",
    tools: { echo: { input: { type: "object" } } },
  },
  { mcpgen: 2, server: { name: 3 }, tools: { "bad name": { input: [] } }, extra: true },
  {
    mcpgen: 1,
    server: { name: "x", version: "1" },
    protocol: ["2026-07-28", "1999-01-01"],
    resources: { a: { uri: 5 } },
  },
  null,
];
const schemas: unknown[] = [
  { type: "object", properties: { a: { type: "strng" } } },
  { minimum: "low", items: [1] },
  { $defs: { x: { type: ["string", 3] } } },
  true,
  5,
];

describe("ajv validators from the disk cache", () => {
  const home = process.env.XDG_CACHE_HOME;
  beforeAll(() => {
    process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), "mcp-gen-ajv-cache-"));
  });
  afterAll(() => {
    if (home === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = home;
  });

  it("judge manifests exactly like a freshly compiled validator, on a miss and on a hit", () => {
    const options = { allErrors: true, verbose: true, strict: false };
    const fresh = new Ajv(options).compile(manifestJsonSchema());
    const text = JSON.stringify(manifestJsonSchema());
    for (let run = 0; run < 2; run++) {
      const cached = cachedValidator("draft-07", options, `test ${text}`, (ajv) =>
        ajv.compile(JSON.parse(text) as object),
      );
      for (const manifest of manifests) {
        expect(cached(manifest)).toBe(fresh(manifest));
        expect(cached.errors ?? null).toEqual(fresh.errors ?? null);
      }
    }
  });

  it("judge schemas against the 2020-12 meta-schema exactly like ajv.validateSchema", () => {
    const options = { strict: false, allErrors: true, validateFormats: false, verbose: true };
    const ajv = new Ajv2020(options);
    const meta = "https://json-schema.org/draft/2020-12/schema";
    const cached = cachedValidator("2020-12", options, `test ${meta}`, (a) => a.getSchema(meta)!);
    for (const schema of schemas) {
      const valid = ajv.validateSchema(schema as object);
      expect(cached(schema)).toBe(valid);
      // (ajv leaves errors of an earlier call in place when a schema is valid)
      if (!valid) expect(cached.errors).toEqual(ajv.errors);
    }
  });

  it("are compiled at build time, so a machine's first run compiles none", () => {
    // npm run build seeds the built generator with the validators every run uses
    const seed = join(repoRoot, "dist", "generator", "validate", "ajv-seed");
    expect(readdirSync(seed).filter((f) => f.endsWith(".cjs"))).toHaveLength(3);
    const cache = mkdtempSync(join(tmpdir(), "mcp-gen-first-run-"));
    const out = mkdtempSync(join(tmpdir(), "mcp-gen-first-run-out-"));
    execFileSync(
      process.execPath,
      [cliPath, join(repoRoot, "examples", "weather", "mcp.yaml"), "--out", out, "--schema-dir", schemaDir, "-q"],
      {
        env: { ...process.env, XDG_CACHE_HOME: cache, MCP_GEN_NO_CACHE: "" },
      },
    );
    expect(existsSync(join(out, "validators.gen.ts"))).toBe(true);
    // the run was recorded; nothing was compiled into the ajv area
    expect(existsSync(join(cache, "mcp-gen", "runs"))).toBe(true);
    expect(existsSync(join(cache, "mcp-gen", "ajv-validators"))).toBe(false);
  });

  it("are taken from the build also by a generator run from source: ajv's compiler is never loaded", () => {
    // Builds the validators every run uses, then lists the ajv modules the process loaded (CommonJS, so in require.cache).
    const probe = (base: string, ext: string) => `
      import { createRequire } from "node:module";
      const { compiledValidator } = await import(${JSON.stringify(`${base}/validate/manifest-shape${ext}`)});
      const { metaValidator } = await import(${JSON.stringify(`${base}/validate/json-schema${ext}`)});
      compiledValidator(); metaValidator("draft-07"); metaValidator("2020-12");
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(loaded.some((path) => /[/\\\\]ajv[/\\\\]dist[/\\\\]core\\.js$/.test(path)));`;
    const built = execFileSync(
      process.execPath,
      ["--input-type=module", "-e", probe(pathToFileURL(join(repoRoot, "dist", "generator")).href, ".js")],
      { encoding: "utf8" },
    );
    const source = execFileSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", probe(pathToFileURL(join(repoRoot, "generator")).href, ".ts")],
      {
        encoding: "utf8",
        cwd: repoRoot,
      },
    );
    expect({ built: built.trim(), source: source.trim() }).toEqual({ built: "false", source: "false" });
  });
});
