// A content-addressed text cache on disk next to the schema cache, each area in its own
// folder: what the generator computes from its own code alone (the ajv validators of a
// generator run from source, see validate/ajv-cache.ts) is computed once per machine.
// MCP_GEN_NO_CACHE=1 turns it off, and a cache that cannot be written is simply not used.
// Also the identity of installed packages, which cache keys and the run record use.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { schemaCacheDir } from "./load/protocol.js";
import { replaceFile } from "./write.js";

/** sha256 over the parts, each length-prefixed so that no two lists of parts collide. */
export function cacheKey(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex").slice(0, 32);
}

/**
 * The contents of an installed package's package.json (its version and more) as this module
 * resolves it, wherever the install put it (nested, hoisted or linked); its name when it
 * does not resolve.
 */
export function packageIdentity(pkg: string): string | Uint8Array {
  try {
    return readFileSync(fileURLToPath(import.meta.resolve(`${pkg}/package.json`)));
  } catch {
    // An "exports" map that hides ./package.json: walk up from the package's entry point.
  }
  try {
    for (let dir = dirname(fileURLToPath(import.meta.resolve(pkg))); dirname(dir) !== dir; dir = dirname(dir)) {
      try {
        const bytes = readFileSync(join(dir, "package.json"));
        if ((JSON.parse(bytes.toString("utf8")) as { name?: unknown }).name === pkg) return bytes;
      } catch {
        // no package.json at this level
      }
    }
  } catch {
    // not installed
  }
  return pkg;
}

/** The cached text under `area`/`key`, or `build`'s (then cached). */
export function diskCachedSync(area: string, key: string, extension: string, build: () => string): string {
  if (process.env.MCP_GEN_NO_CACHE === "1") return build();
  const file = join(dirname(schemaCacheDir()), area, `${key}${extension}`);
  try {
    return readFileSync(file, "utf8");
  } catch {
    // not cached yet
  }
  const text = build();
  try {
    mkdirSync(dirname(file), { recursive: true });
    replaceFile(file, text);
  } catch {
    // read-only home or full disk: generate without the cache
  }
  return text;
}
