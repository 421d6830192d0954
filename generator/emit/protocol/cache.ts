// A content-addressed cache of formatted protocol namespaces. A revision's namespace
// depends only on its schema (and patches) and on this generator's code, yet it is the
// bulk of generation time; keyed by all of those, it is computed once per machine.
// Kept in memory per process and on disk next to the schema cache; a cache that cannot
// be written is simply not used.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { schemaCacheDir } from "../../load/protocol.js";

const memory = new Map<string, Promise<string>>();
let fingerprint: string | undefined;

/** Identifies the code that produces namespaces: these modules and the tool versions they drive. */
function generatorFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash("sha256");
  const here = dirname(fileURLToPath(import.meta.url));
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  for (const module of ["./emit", "./cache", "../json-schema-types", "../escape", "../format", "../../model/protocol", "../../load/protocol-patches"]) {
    hash.update(readFileSync(join(here, `${module}${ext}`)));
  }
  for (const pkg of ["json-schema-to-typescript", "prettier"]) {
    try {
      hash.update(readFileSync(fileURLToPath(import.meta.resolve(`${pkg}/package.json`))));
    } catch {
      hash.update(pkg);
    }
  }
  return (fingerprint = hash.digest("hex"));
}

function diskPath(key: string): string {
  return join(dirname(schemaCacheDir()), "protocol-types", `${key}.ts`);
}

/** The cached text for `parts`, or the result of `build` (then cached). */
export function cachedNamespace(parts: readonly string[], build: () => Promise<string>): Promise<string> {
  const key = createHash("sha256").update(generatorFingerprint()).update(JSON.stringify(parts)).digest("hex").slice(0, 32);
  let cached = memory.get(key);
  if (cached) return cached;
  cached = (async () => {
    const disabled = process.env.MCP_GEN_NO_CACHE === "1";
    const file = diskPath(key);
    if (!disabled) {
      try {
        return readFileSync(file, "utf8");
      } catch {
        // not cached yet
      }
    }
    const text = await build();
    if (!disabled) {
      try {
        mkdirSync(dirname(file), { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, text);
        renameSync(temp, file);
      } catch {
        // read-only home or full disk: generate without the cache
      }
    }
    return text;
  })();
  memory.set(key, cached);
  return cached;
}
