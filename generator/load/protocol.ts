// Finds and reads the official protocol schema.json of a revision, in either dialect
// (draft-07 `definitions` up to 2025-06-18, 2020-12 `$defs` from 2025-11-25), and
// applies the documented defect patches.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { schemaPatches } from "./protocol-patches.js";
import { knownRevisions, type Dialect, type Revision } from "./revisions.js";

export type SchemaObject = Record<string, unknown>;

export interface ProtocolSchema {
  readonly revision: Revision;
  /** The file read, as the user would recognise it. */
  readonly file: string;
  readonly sha256: string;
  readonly dialect: Dialect;
  /** Definitions keyed by name, patched, in the file's order. */
  readonly definitions: Readonly<Record<string, SchemaObject>>;
  /** Reasons of the patches that changed this schema. */
  readonly patches: readonly string[];
}

export interface SchemaLocationOptions {
  /** An explicit schema.json (only meaningful for a single revision). */
  readonly schemaFile?: string | undefined;
  /** A folder laid out as <dir>/<revision>/schema.json. */
  readonly schemaDir?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Where `mcp-gen schema fetch` stores schemas: $XDG_CACHE_HOME/mcp-gen/schemas or ~/.cache/mcp-gen/schemas. */
export function schemaCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "mcp-gen", "schemas");
}

/** The candidate files for a revision, in resolution order, with where each came from. */
export function schemaCandidates(revision: Revision, options: SchemaLocationOptions): { file: string; from: string }[] {
  const env = options.env ?? process.env;
  const candidates: { file: string; from: string }[] = [];
  if (options.schemaFile) candidates.push({ file: options.schemaFile, from: "--schema" });
  else {
    if (options.schemaDir) candidates.push({ file: join(options.schemaDir, revision, "schema.json"), from: "--schema-dir" });
    else if (env.MCP_GEN_SCHEMA_DIR) candidates.push({ file: join(env.MCP_GEN_SCHEMA_DIR, revision, "schema.json"), from: "MCP_GEN_SCHEMA_DIR" });
    candidates.push({ file: join(schemaCacheDir(env), revision, "schema.json"), from: "the schema cache" });
  }
  return candidates;
}

export function loadProtocolSchema(
  revision: Revision,
  options: SchemaLocationOptions,
  where: Diagnostic["location"],
): { schema?: ProtocolSchema; diagnostics: Diagnostic[] } {
  const found = schemaCandidates(revision, options).find((c) => existsSync(resolve(c.file)));
  if (!found) return { diagnostics: [missingSchemas([revision], options, where)] };
  const bytes = readFileSync(resolve(found.file));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  let parsed: SchemaObject;
  try {
    parsed = JSON.parse(bytes.toString("utf8")) as SchemaObject;
  } catch (error) {
    return { diagnostics: [{ location: { file: found.file }, message: `not valid JSON (${(error as Error).message}); fetch it again with \`mcp-gen schema fetch ${revision}\`` }] };
  }
  const dialect: Dialect = String(parsed.$schema ?? "").includes("2020-12") ? "2020-12" : "draft-07";
  const container = (parsed.$defs ?? parsed.definitions) as Record<string, SchemaObject> | undefined;
  if (!container || typeof container !== "object") {
    return { diagnostics: [{ location: { file: found.file }, message: "has neither $defs nor definitions; is this an MCP protocol schema.json?" }] };
  }
  const expected = knownRevisions().get(revision)?.dialect;
  if (expected && expected !== dialect) {
    return {
      diagnostics: [{ location: { file: found.file }, message: `declares JSON Schema ${dialect} but ${revision} is published as ${expected}; is this the schema of another revision?` }],
    };
  }
  // Freshly parsed, so patched in place.
  const patches: string[] = [];
  for (const patch of schemaPatches) {
    if (patch.revision === revision && patch.apply(container)) patches.push(`${patch.definition}: ${patch.reason}`);
  }
  return { schema: { revision, file: found.file, sha256, dialect, definitions: container, patches }, diagnostics: [] };
}

/** Revisions whose schema.json is nowhere to be found. */
export function missingRevisions(revisions: readonly Revision[], options: SchemaLocationOptions): Revision[] {
  return revisions.filter((revision) => !schemaCandidates(revision, options).some((c) => existsSync(resolve(c.file))));
}

/** One diagnostic for all missing schemas: where mcp-gen looked and the command that fixes it. */
export function missingSchemas(revisions: readonly Revision[], options: SchemaLocationOptions, where: Diagnostic["location"]): Diagnostic {
  const places = schemaCandidates(revisions[0]!, options).map((c) => `${c.file.replace(revisions[0]!, "<revision>")} (${c.from})`);
  const what = revisions.length === 1 ? `protocol schema for ${revisions[0]}` : `protocol schemas for ${revisions.join(", ")}`;
  return {
    location: where,
    message: `${what} not found (looked in ${places.join(", ")}); run \`mcp-gen schema fetch ${revisions.join(" ")}\`, or pass --schema-dir <dir> holding <revision>/schema.json`,
  };
}
