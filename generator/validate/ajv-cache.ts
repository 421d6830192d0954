// ajv validators kept as standalone code. Compiling the manifest schema and a JSON Schema
// meta-schema (and loading ajv to do it) costs a few hundred milliseconds, though their
// inputs only change with mcp-gen itself: `npm run build` compiles them into the built
// package (dist/generator/validate/ajv-seed/, see ./seed-ajv.ts), keyed by everything they
// depend on, and every run, from dist or from source, takes them from there. A miss (no
// build, or sources changed since it) compiles as before. Every path runs the same code.
// Measured (bench/FINDINGS.md, issue 29): without the seed a cold run of the weather example
// costs ~1.3-1.7x the CPU time, the ajv compiler being most of a small manifest's run.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Ajv, Options, ValidateFunction } from "ajv";
import { packageRoot } from "../load/revisions.js";
import { cacheKey, packageIdentity } from "../package-identity.js";

/** Standalone code the build compiled, by cache key. */
function seeded(key: string): string | undefined {
  try {
    return readFileSync(join(packageRoot(), "dist", "generator", "validate", "ajv-seed", `${key}.cjs`), "utf8");
  } catch {
    return undefined; // not built, or built from other sources
  }
}

const require = createRequire(import.meta.url);

export type AjvFlavour = "draft-07" | "2020-12";

/** ajv's constructor of a flavour, loaded only on a miss. */
function newAjv(flavour: AjvFlavour, options: Options): Ajv {
  const module = (flavour === "draft-07" ? require("ajv") : require("ajv/dist/2020")) as {
    default: new (options: Options) => Ajv;
  };
  return new module.default({ ...options, code: { ...options.code, source: true } });
}

/**
 * The validator `compile` builds with a fresh ajv of `flavour` and `options`, through
 * the build's seed; `identity` names everything else it depends on (the schema's text, say).
 * `seedInto` (the build's seed step only) compiles afresh and writes the code into that folder.
 */
export function cachedValidator(
  flavour: AjvFlavour,
  options: Options,
  identity: string,
  compile: (ajv: Ajv) => ValidateFunction,
  seedInto?: string,
): ValidateFunction {
  const key = cacheKey([packageIdentity("ajv"), flavour, JSON.stringify(options), identity]);
  let code = seedInto === undefined ? seeded(key) : undefined;
  if (code === undefined) {
    const ajv = newAjv(flavour, options);
    const standalone = (require("ajv/dist/standalone") as { default: (ajv: Ajv, validate: ValidateFunction) => string })
      .default;
    code = standalone(ajv, compile(ajv));
  }
  if (seedInto !== undefined) {
    mkdirSync(seedInto, { recursive: true });
    writeFileSync(join(seedInto, `${key}.cjs`), code);
  }
  const module: { exports: unknown } = { exports: {} };
  new Function("require", "module", "exports", code)(require, module, module.exports);
  return module.exports as ValidateFunction;
}
