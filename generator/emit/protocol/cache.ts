// Formatted protocol namespaces, cached. A revision's namespace depends only on its schema
// (and patches) and on this generator's code, yet it is the bulk of generation time for a
// small manifest; keyed by all of those, it is computed once per machine.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheKey, diskCached, packageIdentity } from "../../disk-cache.js";

let fingerprint: (string | Uint8Array)[] | undefined;

/** Identifies the code that produces namespaces: these modules and the tool versions they drive. */
function generatorFingerprint(): (string | Uint8Array)[] {
  if (fingerprint) return fingerprint;
  const here = dirname(fileURLToPath(import.meta.url));
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const modules = [
    "./emit", "./cache", "../json-schema-types", "../types/schema-types", "../escape", "../format",
    "../layout/type-doc", "../layout/types", "../layout/print", "../layout/literals", "../layout/width", "../layout/expression",
    "../../model/protocol", "../../load/protocol-patches",
  ];
  return (fingerprint = [...modules.map((module) => readFileSync(join(here, `${module}${ext}`))), ...["json-schema-to-typescript", "prettier"].map(packageIdentity)]);
}

/** The cached text for `parts`, or the result of `build` (then cached). */
export function cachedNamespace(parts: readonly string[], build: () => Promise<string>): Promise<string> {
  return diskCached("protocol-types", cacheKey([...generatorFingerprint(), ...parts]), build);
}
