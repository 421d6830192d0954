// `mcp-gen schema fetch|list`, and the pinning `init` does: where protocol schemas come from
// for a project, and filling its `protocolSchemas` folder (or the user's cache) with files
// whose sha256 is the one pinned in schema/revisions.json.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { err, formatDiagnostic, isWarning, out } from "../diagnostics.js";
import { copySchema, fetchSchema, FetchError } from "../load/fetch-schema.js";
import {
  projectFetchCommand,
  projectSource,
  schemaCacheDir,
  schemaCandidates,
  type ProjectSchemas,
} from "../load/protocol.js";
import { isReleased, knownRevisions, type Revision } from "../load/revisions.js";
import { loadModel } from "../pipeline.js";
import { replaceFile } from "../write.js";

/** What a manifest says about protocol schemas: the revisions it targets and its `protocolSchemas` folder. */
interface ManifestSchemas {
  readonly revisions: readonly Revision[];
  readonly project: ProjectSchemas | undefined;
}

/**
 * The manifest named, or ./mcp.yaml when there is one (undefined: no manifest). Mistakes
 * elsewhere in the manifest do not stop these commands; when `protocol` or `protocolSchemas`
 * itself is wrong, its diagnostics are printed and the result is "failed".
 */
function readManifestSchemas(manifest: string | undefined): ManifestSchemas | undefined | "failed" {
  const path = manifest ?? (existsSync("mcp.yaml") ? "mcp.yaml" : undefined);
  if (path === undefined) return undefined;
  const read = loadModel({ manifest: path });
  if (read.ok) return { revisions: read.model.revisions, project: read.project };
  if (read.protocol) return { revisions: read.protocol.revisions, project: read.protocol.project };
  for (const diagnostic of read.diagnostics.filter((d) => !isWarning(d))) err(formatDiagnostic(diagnostic));
  return "failed";
}

/** A path in the project as the user would type it from here: relative when inside the working directory. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** Writes each verified schema as <dir>/<revision>/schema.json, atomically; returns the files written. */
function writeSchemas(dir: string, schemas: ReadonlyMap<Revision, Uint8Array>): Map<Revision, string> {
  const written = new Map<Revision, string>();
  for (const [revision, bytes] of schemas) {
    const target = join(dir, revision, "schema.json");
    mkdirSync(dirname(target), { recursive: true });
    replaceFile(target, bytes);
    written.set(revision, target);
  }
  return written;
}

export interface FetchArgs {
  /** Revisions named on the command line; none means the manifest's, or every known one. */
  readonly revisions: readonly string[];
  readonly manifest?: string | undefined;
  /** Copy from this local folder (<dir>/<revision>/schema.json) instead of downloading. */
  readonly from?: string | undefined;
}

/**
 * Into the manifest's `protocolSchemas` folder when it declares one, else into the cache. Every
 * file is downloaded (or copied) and verified before the first is written: one bad file leaves
 * the folder as it was.
 */
export async function runSchemaFetch(args: FetchArgs): Promise<number> {
  const manifest = readManifestSchemas(args.manifest);
  if (manifest === "failed") return 1;
  const wanted =
    args.revisions.length > 0 ? args.revisions : manifest ? manifest.revisions : [...knownRevisions().keys()];
  const unknown = wanted.filter((r) => !isReleased(r));
  if (unknown.length > 0) {
    err(`unknown revision ${unknown.join(", ")}; known: ${[...knownRevisions().keys()].join(", ")}`);
    return 2;
  }
  const verified = new Map<Revision, Uint8Array>();
  for (const revision of new Set(wanted as Revision[])) {
    try {
      verified.set(
        revision,
        args.from === undefined ? await fetchSchema(revision) : copySchema(revision, resolve(args.from)),
      );
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      err(`${revision}: ${error.message}`);
      err(`nothing written to ${manifest?.project ? shown(manifest.project.dir) : schemaCacheDir()}`);
      return 1;
    }
  }
  // The cache is the user's, shown absolute; a project folder as the user would type it.
  const project = manifest?.project;
  for (const [revision, target] of writeSchemas(project?.dir ?? schemaCacheDir(), verified))
    out(`${revision}: ${project ? shown(target) : target} (sha256 verified)`);
  return 0;
}

export interface ListArgs {
  readonly schemaDir?: string | undefined;
  readonly manifest?: string | undefined;
  readonly json: boolean;
}

/** Every known revision and the schema.json generate would read for it, with where that came from. */
export function runSchemaList(args: ListArgs): number {
  const manifest = readManifestSchemas(args.manifest);
  if (manifest === "failed") return 1;
  const project = manifest?.project;
  const options = { schemaDir: args.schemaDir, project };
  const rows = [...knownRevisions()].map(([revision, facts]) => {
    const candidates = schemaCandidates(revision, options);
    const found = candidates.find((c) => existsSync(resolve(c.file)));
    const fromProject =
      project !== undefined && candidates.length === 1 && candidates[0]!.from === projectSource(project);
    return {
      revision,
      era: facts.era,
      dialect: facts.dialect,
      file: found?.file ?? null,
      from: found?.from ?? null,
      fromProject,
    };
  });
  if (args.json)
    out(
      JSON.stringify(
        rows.map(({ fromProject: _, ...row }) => row),
        null,
        2,
      ),
    );
  for (const row of args.json ? [] : rows) {
    const fix = row.fromProject
      ? `not in ${project!.written} (${projectSource(project!)}); run \`${projectFetchCommand(project!, [row.revision])}\``
      : `not available; run \`mcp-gen schema fetch ${row.revision}\``;
    const where = row.file === null ? fix : `${row.fromProject ? shown(row.file) : row.file} (${row.from})`;
    out(`${row.revision}  ${row.era.padEnd(6)}  ${row.dialect.padEnd(8)}  ${where}`);
  }
  return 0;
}

/**
 * `init`: fills the new manifest's `protocolSchemas` folder with the revisions it targets from
 * what is on this machine (`--schema-dir`, `$MCP_GEN_SCHEMA_DIR`, the cache), sha256-verified,
 * so the project generates offline from its first run; says how to fill what it cannot.
 */
/** Fills a new project's protocolSchemas folder from what this machine has; true when nothing is left to fetch. */
export function pinInitSchemas(manifestPath: string, schemaDir: string | undefined): boolean {
  const manifest = readManifestSchemas(manifestPath);
  if (manifest === undefined || manifest === "failed" || manifest.project === undefined) return false;
  const { project } = manifest;
  const found = new Map<Revision, Uint8Array>();
  const notes: string[] = [];
  for (const revision of manifest.revisions) {
    for (const candidate of schemaCandidates(revision, {
      schemaDir: schemaDir === undefined ? undefined : resolve(schemaDir),
    })) {
      if (!existsSync(candidate.file)) continue;
      try {
        found.set(revision, copySchema(revision, dirname(dirname(candidate.file))));
        break;
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        notes.push(`note: ${candidate.from}: ${error.message}`);
      }
    }
  }
  for (const note of notes) err(note);
  const written = writeSchemas(project.dir, found);
  if (written.size > 0)
    out(`pinned protocol schemas ${[...written.keys()].join(", ")} in ${shown(project.dir)} (sha256 verified)`);
  const missing = manifest.revisions.filter((r) => !written.has(r));
  if (missing.length > 0) {
    const fetch = projectFetchCommand(project, written.size === 0 ? [] : missing);
    out(
      `${shown(project.dir)} has no protocol schema for ${missing.join(", ")} yet: run \`${fetch}\` (or \`${fetch} --from <dir>\` with a folder holding <revision>/schema.json) before generating`,
    );
  }
  return missing.length === 0;
}
