// A content-addressed text cache on disk next to the schema cache, each area in its own
// folder: what the generator computes from its own code alone (the ajv validators of a
// generator run from source, see validate/ajv-cache.ts) is computed once per machine.
// MCP_GEN_NO_CACHE=1 turns it off, and a cache that cannot be written is simply not used.
// Also the identity of installed packages, which cache keys and the run record use.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { schemaCacheDir } from "./load/protocol.js";

/** sha256 over the parts, each length-prefixed so that no two lists of parts collide. */
export function cacheKey(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex").slice(0, 32);
}

/**
 * The package.json of `pkg` as this module resolves it (wherever the install put it:
 * nested, hoisted or linked), or undefined when it does not resolve.
 */
export function resolvedPackageJson(pkg: string): string | undefined {
  try {
    return fileURLToPath(import.meta.resolve(`${pkg}/package.json`));
  } catch {
    // An "exports" map that hides ./package.json: walk up from the package's entry point.
  }
  try {
    for (let dir = dirname(fileURLToPath(import.meta.resolve(pkg))); dirname(dir) !== dir; dir = dirname(dir)) {
      const file = join(dir, "package.json");
      try {
        if ((JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name === pkg) return file;
      } catch {
        // no package.json at this level
      }
    }
  } catch {
    // not installed
  }
  return undefined;
}

/** The contents of an installed package's package.json (its version and more), or its name when it cannot be read. */
export function packageIdentity(pkg: string): string | Uint8Array {
  const file = resolvedPackageJson(pkg);
  try {
    return file === undefined ? pkg : readFileSync(file);
  } catch {
    return pkg;
  }
}

const disabled = () => process.env.MCP_GEN_NO_CACHE === "1";
const cacheFile = (area: string, key: string) => join(dirname(schemaCacheDir()), area, key);

function read(file: string): string | undefined {
  if (disabled()) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // not cached yet
  }
}

function store(file: string, text: string): void {
  if (disabled()) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch {
    // read-only home or full disk: generate without the cache
  }
}

/** The cached text under `area`/`key`, or `build`'s (then cached). */
export function diskCachedSync(area: string, key: string, extension: string, build: () => string): string {
  const file = cacheFile(area, `${key}${extension}`);
  const found = read(file);
  if (found !== undefined) return found;
  const text = build();
  store(file, text);
  return text;
}
