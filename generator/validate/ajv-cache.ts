// ajv validators kept as standalone code in the disk cache. Compiling the manifest schema
// and a JSON Schema meta-schema (and loading ajv to do it) costs a few hundred
// milliseconds on every run, though their inputs only change with mcp-gen itself; the
// compiled code is reused instead and needs only ajv's small runtime helpers. A cache
// miss (or MCP_GEN_NO_CACHE=1) compiles as before; both paths run the same code.
import { createRequire } from "node:module";
import type { Ajv, Options, ValidateFunction } from "ajv";
import { cacheKey, diskCachedSync, packageIdentity } from "../disk-cache.js";

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
  const code = diskCachedSync("ajv-validators", key, ".cjs", () => {
    const ajv = newAjv(flavour, options);
    const standalone = (require("ajv/dist/standalone") as { default: (ajv: Ajv, validate: ValidateFunction) => string }).default;
    return standalone(ajv, compile(ajv));
  });
  const module: { exports: unknown } = { exports: {} };
  new Function("require", "module", "exports", code)(require, module, module.exports);
  return module.exports as ValidateFunction;
}
