// Finds and reads the official protocol schema.json of a revision, in either dialect
// (draft-07 `definitions` up to 2025-06-18, 2020-12 `$defs` from 2025-11-25), tells its era
// from the schema itself, and applies the documented defect patches.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { didYouMean, quote, warning, type Diagnostic } from "../diagnostics.js";
import { schemaPatches } from "./protocol-patches.js";
import {
  eraOf,
  isReleased,
  knownRevisions,
  releasedBehaviourOf,
  unreleasedNote,
  type Dialect,
  type Era,
  type Revision,
} from "./revisions.js";

export type SchemaObject = Record<string, unknown>;

export interface ProtocolSchema {
  readonly revision: Revision;
  /** The file read, as the user would recognise it. */
  readonly file: string;
  readonly sha256: string;
  readonly dialect: Dialect;
  /** Legacy (an `initialize` handshake opens a session) or modern (`server/discover`, version and capabilities in each request's _meta), as the schema's requests say. */
  readonly era: Era;
  /** Whether the revision is released (schema/revisions.json); else it generates with a warning. */
  readonly released: boolean;
  /** Definitions keyed by name, patched, in the file's order. */
  readonly definitions: Readonly<Record<string, SchemaObject>>;
  /** Reasons of the patches that changed this schema. */
  readonly patches: readonly string[];
}

/** The manifest's `protocolSchemas:` folder: schemas pinned in the project. */
export interface ProjectSchemas {
  /** Absolute folder holding <revision>/schema.json. */
  readonly dir: string;
  /** The value as written in the manifest (`./mcp-schema`). */
  readonly written: string;
  /** The manifest, as messages show it. */
  readonly manifest: string;
  /** Where the manifest says it: a missing schema is reported there. */
  readonly location: Diagnostic["location"];
}

export interface SchemaLocationOptions {
  /** An explicit schema.json (only meaningful for a single revision). */
  readonly schemaFile?: string | undefined;
  /** A folder laid out as <dir>/<revision>/schema.json. */
  readonly schemaDir?: string | undefined;
  /** The manifest's `protocolSchemas:` folder, when it declares one. */
  readonly project?: ProjectSchemas | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Where `mcp-gen schema fetch` stores schemas: $XDG_CACHE_HOME/mcp-gen/schemas or ~/.cache/mcp-gen/schemas. */
export function schemaCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "mcp-gen", "schemas");
}

/** How `from` names the manifest's folder in messages and `schema list`. */
export const projectSource = (project: ProjectSchemas) => `protocolSchemas in ${project.manifest}`;

/**
 * The candidate files for a revision, in resolution order, with where each came from. The one
 * place that decides precedence: `--schema`, else `--schema-dir`, else `$MCP_GEN_SCHEMA_DIR`
 * (each of those two followed by the cache, as before pinning existed), else the manifest's
 * `protocolSchemas` alone (a pinned project never reads the user's cache, so it generates the
 * same everywhere), else the cache.
 */
export function schemaCandidates(revision: Revision, options: SchemaLocationOptions): { file: string; from: string }[] {
  const env = options.env ?? process.env;
  const inFolder = (dir: string, from: string) => ({ file: join(dir, revision, "schema.json"), from });
  const cache = inFolder(schemaCacheDir(env), "the schema cache");
  if (options.schemaFile) return [{ file: options.schemaFile, from: "--schema" }];
  if (options.schemaDir) return [inFolder(options.schemaDir, "--schema-dir"), cache];
  if (env.MCP_GEN_SCHEMA_DIR) return [inFolder(env.MCP_GEN_SCHEMA_DIR, "MCP_GEN_SCHEMA_DIR"), cache];
  if (options.project) return [inFolder(options.project.dir, projectSource(options.project))];
  return [cache];
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
    return {
      diagnostics: [
        {
          location: { file: found.file },
          message: `not valid JSON (${(error as Error).message}); fetch it again with \`mcp-gen schema fetch ${revision}\``,
        },
      ],
    };
  }
  const dialect = dialectOf(parsed);
  const container = (parsed.$defs ?? parsed.definitions) as Record<string, SchemaObject> | undefined;
  if (!container || typeof container !== "object") {
    return {
      diagnostics: [
        {
          location: { file: found.file },
          message: "has neither $defs nor definitions; is this an MCP protocol schema.json?",
        },
      ],
    };
  }
  const problem = (message: string) => ({ diagnostics: [{ location: { file: found.file }, message }] });
  const expected = knownRevisions().get(revision)?.dialect;
  if (expected && expected !== dialect)
    return problem(
      `declares JSON Schema ${dialect} but ${revision} is published as ${expected}; is this the schema of another revision?`,
    );
  const era = eraFromSchema(container);
  if (!era)
    return problem(
      "has neither an initialize request nor a server/discover request, so its protocol era is unknown; is this an MCP protocol schema.json?",
    );
  // The runtime serves a revision it does not list as the released revision before it: the eras must agree.
  if (era !== eraOf(revision)) {
    return problem(
      `is a ${era}-era schema (it ${era === "legacy" ? "has an" : "has no"} initialize request), but the runtime treats ${revision} as ${eraOf(revision)} era like the released revisions before it; this needs a newer mcp-gen`,
    );
  }
  // Freshly parsed, so patched in place.
  const patches: string[] = [];
  for (const patch of schemaPatches) {
    if (
      (patch.revision === revision || (!isReleased(revision) && releasedBehaviourOf(revision) >= patch.revision)) &&
      patch.apply(container)
    )
      patches.push(`${patch.definition}: ${patch.reason}`);
  }
  return {
    schema: {
      revision,
      file: found.file,
      sha256,
      dialect,
      era,
      released: isReleased(revision),
      definitions: container,
      patches,
    },
    diagnostics: [],
  };
}

/** `$defs` with a 2020-12 `$schema` from 2025-11-25 on; draft-07 `definitions` before. */
function dialectOf(schema: SchemaObject): Dialect {
  return String(schema.$schema ?? "").includes("2020-12") ||
    (schema.$defs !== undefined && schema.definitions === undefined)
    ? "2020-12"
    : "draft-07";
}

/** The method a request or notification definition has as its `method` const. */
export function methodOf(definition: SchemaObject | undefined): string | undefined {
  const properties = definition?.properties as Record<string, SchemaObject> | undefined;
  const method = properties?.method?.const;
  return typeof method === "string" ? method : undefined;
}

/** Legacy when the schema has an `initialize` request, modern when it has `server/discover` instead. */
function eraFromSchema(definitions: Readonly<Record<string, SchemaObject>>): Era | undefined {
  const methods = new Set(Object.values(definitions).map(methodOf));
  if (methods.has("initialize")) return "legacy";
  return methods.has("server/discover") ? "modern" : undefined;
}

/** Revisions whose schema.json is nowhere to be found. */
export function missingRevisions(revisions: readonly Revision[], options: SchemaLocationOptions): Revision[] {
  return revisions.filter((revision) => !schemaCandidates(revision, options).some((c) => existsSync(resolve(c.file))));
}

/** The command that fills a project's `protocolSchemas` folder with `revisions` (none: those the manifest targets), run from the working directory. */
export function projectFetchCommand(project: ProjectSchemas, revisions: readonly Revision[]): string {
  return [
    "npx mcp-gen schema fetch",
    ...(project.manifest === "mcp.yaml" ? [] : ["--manifest", project.manifest]),
    ...revisions,
  ].join(" ");
}

/** One diagnostic for all missing schemas: where mcp-gen looked and the command that fixes it. */
export function missingSchemas(
  revisions: readonly Revision[],
  options: SchemaLocationOptions,
  where: Diagnostic["location"],
): Diagnostic {
  const candidates = schemaCandidates(revisions[0]!, options);
  const what =
    revisions.length === 1 ? `protocol schema for ${revisions[0]}` : `protocol schemas for ${revisions.join(", ")}`;
  const project = options.project;
  if (project && candidates.length === 1 && candidates[0]!.from === projectSource(project)) {
    const fetch = projectFetchCommand(project, revisions);
    return {
      location: project.location,
      message:
        `${what} not found in the project's protocolSchemas folder ${project.written} (no ${revisions.map((r) => `${r}/schema.json`).join(", ")} there); ` +
        `run \`${fetch}\` to fill it, or \`${fetch} --from <dir>\` offline from a folder holding <revision>/schema.json`,
    };
  }
  const places = candidates.map((c) => `${c.file.replace(revisions[0]!, "<revision>")} (${c.from})`);
  return {
    location: where,
    message: `${what} not found (looked in ${places.join(", ")}); run \`mcp-gen schema fetch ${revisions.join(" ")}\`, or pass --schema-dir <dir> holding <revision>/schema.json`,
  };
}

/**
 * The selected revisions that are not released: an error for each whose schema.json is nowhere
 * (most likely a typo), a warning for each that generates from a schema.json found on disk.
 * `locate` gives where the manifest names the revision at an index of `revisions`.
 */
export function unreleasedRevisions(
  revisions: readonly Revision[],
  options: SchemaLocationOptions,
  locate: (index: number) => Diagnostic["location"],
): Diagnostic[] {
  const released = [...knownRevisions().keys()];
  return revisions.flatMap((revision, index) => {
    if (isReleased(revision)) return [];
    const found = schemaCandidates(revision, options).find((c) => existsSync(resolve(c.file)));
    if (found) return [warning(locate(index), unreleasedNote(revision, eraOf(revision), found.file))];
    const suggestion = didYouMean(revision, released);
    return [
      {
        location: locate(index),
        message:
          `${quote(revision)} is not a released protocol revision; use one of: ${released.join(", ")}${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ""}, ` +
          `or put its schema.json in the protocol schema folder as ${revision}/schema.json`,
      },
    ];
  });
}
