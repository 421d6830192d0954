// The identity of installed packages, which the run record (memo.ts) and the build-time
// ajv validators (validate/ajv-cache.ts) are keyed by, and the digest that keys them.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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
