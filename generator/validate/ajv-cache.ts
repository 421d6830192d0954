// ajv validators kept as standalone code. Compiling the manifest schema and a JSON Schema
// meta-schema (and loading ajv to do it) costs a few hundred milliseconds, though their
// inputs only change with mcp-gen itself; the compiled code is reused instead and needs
// only ajv's small runtime helpers. `npm run build` compiles them next to this module
// (./ajv-seed/, see ./seed-ajv.ts), so even a machine's first run skips ajv's compiler;
// otherwise the disk cache keeps them, and a miss there (or MCP_GEN_NO_CACHE=1 without
// a seed) compiles as before. Every path runs the same code.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Ajv, Options, ValidateFunction } from "ajv";
import { cacheKey, diskCachedSync, packageIdentity } from "../disk-cache.js";

/** Standalone code compiled at build time, by cache key. */
const seedDir = fileURLToPath(new URL("./ajv-seed/", import.meta.url));
let seeding: string | undefined;

/** Makes every validator built from now on also write its code into `dir` (the build's seed step). */
export function seedInto(dir: string): void {
  mkdirSync(dir, { recursive: true });
  seeding = dir;
}

function seeded(key: string): string | undefined {
  if (seeding !== undefined) return undefined;
  try {
    return readFileSync(join(seedDir, `${key}.cjs`), "utf8");
  } catch {
    return undefined; // running from source, or built without the seed step
  }
}

const require = createRequire(import.meta.url);

export type AjvFlavour = "draft-07" | "2020-12";

/** ajv's constructor of a flavour, loaded only on a cache miss. */
function newAjv(flavour: AjvFlavour, options: Options): Ajv {
  const module = (flavour === "draft-07" ? require("ajv") : require("ajv/dist/2020")) as { default: new (options: Options) => Ajv };
  return new module.default({ ...options, code: { ...options.code, source: true } });
}

/**
 * The validator `compile` builds with a fresh ajv of `flavour` and `options`, through
 * the cache; `identity` names everything else it depends on (the schema's text, say).
 */
export function cachedValidator(flavour: AjvFlavour, options: Options, identity: string, compile: (ajv: Ajv) => ValidateFunction): ValidateFunction {
  const key = cacheKey([packageIdentity("ajv"), flavour, JSON.stringify(options), identity]);
  const code =
    seeded(key) ??
    diskCachedSync("ajv-validators", key, ".cjs", () => {
      const ajv = newAjv(flavour, options);
      const standalone = (require("ajv/dist/standalone") as { default: (ajv: Ajv, validate: ValidateFunction) => string }).default;
      return standalone(ajv, compile(ajv));
    });
  if (seeding !== undefined) writeFileSync(join(seeding, `${key}.cjs`), code);
  const module: { exports: unknown } = { exports: {} };
  new Function("require", "module", "exports", code)(require, module, module.exports);
  return module.exports as ValidateFunction;
}
