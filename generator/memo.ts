// Remembers the last successful run per manifest and options: the digest of every input
// (manifest, referenced schemas, protocol schemas) and of every output file. Output is a
// pure function of the inputs and the generator, so when all of them are unchanged on
// disk the run's outcome is known without parsing, validating and emitting again:
// `--check` on a large unchanged project answers in a fraction of a full run.
// Any doubt (no record, a digest that differs, an unreadable file) means a full run.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packageIdentity } from "./package-identity.js";
import { schemaCacheDir } from "./load/protocol.js";
import { packageRoot } from "./load/revisions.js";
import { generatedMarker, type Generated } from "./generated.js";
import { replaceFile } from "./write.js";

interface FileDigest {
  readonly path: string;
  readonly sha256: string;
}

interface RunRecord {
  readonly inputs: readonly FileDigest[];
  /** Paths that did not exist and must still not exist (schema locations ahead of the one used). */
  readonly absent: readonly string[];
  readonly outDir: string;
  readonly outputs: readonly FileDigest[];
}

export interface RunKey {
  readonly manifest: string;
  readonly out?: string | undefined;
  readonly schema?: string | undefined;
  readonly schemaDir?: string | undefined;
  readonly version: string;
}

function sha256(path: string): string | undefined {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return undefined;
  }
}

let generatorDigest: string | undefined;

/**
 * The generator itself: the contents of every module of this package next to this one
 * (built .js, or .ts when run from source) and its schema data (templates/ are docs' and
 * init's, not generate's), and the package.json of each runtime dependency as module
 * resolution finds it from here (a hoisted, nested or linked install alike), so an
 * upgraded dependency is a new generator.
 */
function generatorFingerprint(): string {
  if (generatorDigest) return generatorDigest;
  const root = packageRoot();
  const hash = createHash("sha256");
  const here = dirname(fileURLToPath(import.meta.url));
  const modules = readdirSync(here, { recursive: true })
    .map(String)
    .filter((f) => /\.(js|cjs|ts|json)$/.test(f) && !f.endsWith(".d.ts"));
  const files = [
    ...modules.map((f) => join(here, f)),
    join(root, "schema", "manifest.schema.json"),
    join(root, "schema", "revisions.json"),
  ].sort();
  for (const file of files) hash.update(relative(root, file)).update(sha256(file) ?? "-");
  for (const pkg of dependencyNames(root)) hash.update(`\0${pkg}\0`).update(packageIdentity(pkg));
  return (generatorDigest = hash.digest("hex"));
}

/** The runtime dependencies this package declares, sorted. */
function dependencyNames(root: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    return Object.keys(manifest.dependencies ?? {}).sort();
  } catch {
    return [];
  }
}

function recordPath(key: RunKey): string {
  const env = ["MCP_GEN_SCHEMA_DIR", "XDG_CACHE_HOME"].map((k) => process.env[k] ?? "");
  const id = createHash("sha256")
    .update(
      JSON.stringify([
        resolve(key.manifest),
        key.out && resolve(key.out),
        key.schema && resolve(key.schema),
        key.schemaDir && resolve(key.schemaDir),
        key.version,
        env,
        generatorFingerprint(),
      ]),
    )
    .digest("hex")
    .slice(0, 32);
  return join(dirname(schemaCacheDir()), "runs", `${id}.json`);
}

const digests = (paths: readonly string[]): FileDigest[] => paths.map((path) => ({ path, sha256: sha256(path) ?? "" }));

/** Saves what a successful run read and wrote. Never fails the run. */
export function remember(key: RunKey, generated: Generated): void {
  if (process.env.MCP_GEN_NO_CACHE === "1") return;
  try {
    const { outDir } = generated;
    const outputs = digests([...generated.files.keys()].map((path) => join(outDir, path)));
    const record: RunRecord = { inputs: digests(generated.inputs), absent: generated.absentInputs, outDir, outputs };
    const file = recordPath(key);
    mkdirSync(dirname(file), { recursive: true });
    replaceFile(file, JSON.stringify(record));
  } catch {
    // a cache that cannot be written is not used
  }
}

/** The remembered run when every input and output is still byte-identical to it, else undefined. */
export function unchangedRun(key: RunKey): RunRecord | undefined {
  if (process.env.MCP_GEN_NO_CACHE === "1") return undefined;
  let record: RunRecord;
  try {
    record = JSON.parse(readFileSync(recordPath(key), "utf8")) as RunRecord;
  } catch {
    return undefined;
  }
  const same = (d: FileDigest) => d.sha256 !== "" && sha256(d.path) === d.sha256;
  if (!record.inputs.every(same) || !record.outputs.every(same)) return undefined;
  if (!Array.isArray(record.absent) || record.absent.some((path) => existsSync(path))) return undefined;
  // A generated file left over from an earlier run that this run did not produce would be obsolete.
  try {
    const known = new Set(record.outputs.map((o) => o.path));
    const stray = readdirSync(record.outDir).some(
      (name) =>
        name.endsWith(".ts") &&
        !known.has(join(record.outDir, name)) &&
        readFileSync(join(record.outDir, name), "utf8").startsWith(generatedMarker),
    );
    if (stray) return undefined;
  } catch {
    return undefined;
  }
  return record;
}
