// The generator as one pure function: manifest path and options in, either the complete
// set of generated files (path → text) or diagnostics out. Nothing here writes files or
// prints; the CLI and the tests decide what to do with the result.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { isWarning, quote, sortDiagnostics, type Diagnostic } from "./diagnostics.js";
import type { Banner } from "./emit/file.js";
import type { Generated } from "./generated.js";
import { outsideProjectRoot } from "./load/project-root.js";
import { projectSchemasOf } from "./load/project-schemas.js";
import {
  loadProtocolSchema,
  missingRevisions,
  missingSchemas,
  schemaCandidates,
  type ProjectSchemas,
  type SchemaLocationOptions,
} from "./load/protocol.js";
import { parseSource } from "./load/parse.js";
import { buildProtocolModel, type ProtocolModel } from "./model/protocol.js";
import type { Revision } from "./load/revisions.js";
import type { JsonValue, PositionIndex } from "./load/source.js";
import { buildServerModel, revisionsOf, type ServerModel } from "./model/server.js";
import { checkManifestShape } from "./validate/manifest-shape.js";

export type { Generated };

export interface GenerateOptions extends Omit<SchemaLocationOptions, "project"> {
  /** Path of the manifest (mcp.yaml); its `protocolSchemas` is read from it, never passed. */
  readonly manifest: string;
  /** Overrides the manifest's `output`. */
  readonly out?: string | undefined;
  /** Written into the banner; undefined leaves it out (golden tests). */
  readonly version?: string | undefined;
  /** Working directory that relative paths and displayed file names are relative to. */
  readonly cwd?: string | undefined;
  /** Accept a manifest `output` folder outside the project root (`--allow-outside`). */
  readonly allowOutside?: boolean | undefined;
  /** Treat warnings as errors (`--strict`). */
  readonly strict?: boolean | undefined;
  /** Told what the run is doing as it moves from phase to phase (the CLI's progress line). */
  readonly onPhase?: ((what: string) => void) | undefined;
}

/** Diagnostics come sorted by file and position; on success they are warnings only. A failed run names the inputs it got to (watch mode). */
export type GenerateResult =
  | { ok: true; generated: Generated; warnings: readonly Diagnostic[] }
  | { ok: false; diagnostics: readonly Diagnostic[]; inputs?: readonly string[] };

const toPosix = (path: string) => path.split(sep).join("/");

/** What the load, validate and model phases found: what `generate` emits, `docs` describes and `scaffold` stubs. */
export interface LoadedModel {
  readonly model: ServerModel;
  /** Warnings found on the way (errors stop the run; --strict makes every warning one). */
  readonly warnings: readonly Diagnostic[];
  /** The manifest, absolute and as messages show it. */
  readonly absolute: string;
  readonly manifestFile: string;
  /** The manifest's `output:` as written. */
  readonly declaredOutput: unknown;
  /** The manifest's `protocolSchemas:` folder, when it declares one. */
  readonly project: ProjectSchemas | undefined;
  readonly positions: PositionIndex;
  readonly display: (file: string) => string;
}

/** On failure, `protocol` is what the manifest asks of protocol schemas (which, and from where) when those parts are intact. */
export type ModelResult =
  | ({ ok: true } & LoadedModel)
  | {
      ok: false;
      diagnostics: readonly Diagnostic[];
      inputs?: readonly string[];
      protocol?: {
        revisions: readonly Revision[];
        location: Diagnostic["location"];
        project: ProjectSchemas | undefined;
      };
    };

/**
 * load → validate shape → model: everything that needs no protocol schema. Shape problems and
 * the semantic problems of every part they leave intact come together: the model skips what
 * the shape check found broken.
 */
export function loadModel(
  options: Pick<GenerateOptions, "manifest" | "out" | "cwd" | "strict" | "onPhase">,
): ModelResult {
  const phase = options.onPhase ?? (() => {});
  const cwd = options.cwd ?? process.cwd();
  const absolute = resolve(cwd, options.manifest);
  const display = (file: string) => {
    const rel = relative(cwd, file);
    return toPosix(rel === "" ? "." : rel.startsWith("..") ? file : rel);
  };
  const manifestFile = display(absolute);
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === "ENOENT"
        ? "no such manifest; pass the path of your mcp.yaml"
        : `cannot read the manifest (${code ?? String(error)})`;
    return { ok: false, diagnostics: [{ location: { file: manifestFile }, message }] };
  }
  phase(`reading ${manifestFile}`);
  const parsed = parseSource(manifestFile, text);
  if (!parsed.source) return { ok: false, diagnostics: parsed.diagnostics };
  const { value, positions } = parsed.source;
  const shape = checkManifestShape(value, positions);
  const pinned =
    shape.broken.has("") || shape.broken.has("/protocolSchemas")
      ? { diagnostics: [] }
      : projectSchemasOf(value, positions, { absolute, file: manifestFile });
  phase(`checking ${manifestFile} and the schemas it references`);
  const built = buildServerModel(
    { file: manifestFile, absolutePath: absolute, value, positions, display },
    options.out === undefined ? undefined : resolve(cwd, options.out),
    shape.broken,
  );
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  for (const diagnostic of [...shape.diagnostics, ...pinned.diagnostics, ...built.diagnostics]) {
    if (!isWarning(diagnostic)) errors.push(diagnostic);
    else if (options.strict) {
      const { severity: _warning, ...asError } = diagnostic;
      errors.push(asError);
    } else warnings.push(diagnostic);
  }
  if (errors.length > 0 || !built.model) {
    // What the manifest asks of protocol schemas, unless that part is broken (generate reports missing ones too).
    const protocolIntact =
      !shape.broken.has("") &&
      !shape.broken.has("/protocol") &&
      !shape.broken.has("/protocolSchemas") &&
      pinned.diagnostics.length === 0;
    return {
      ok: false,
      diagnostics: sortDiagnostics([...warnings, ...errors]),
      ...(built.inputFiles ? { inputs: built.inputFiles } : {}),
      ...(protocolIntact
        ? {
            protocol: {
              revisions: revisionsOf((value as { protocol?: JsonValue }).protocol),
              location: positions.value("/protocol"),
              project: pinned.project,
            },
          }
        : {}),
    };
  }
  return {
    ok: true,
    model: built.model,
    warnings: sortDiagnostics(warnings),
    absolute,
    manifestFile,
    declaredOutput: (value as { output?: unknown }).output,
    project: pinned.project,
    positions,
    display,
  };
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const phase = options.onPhase ?? (() => {});
  const loaded = loadModel(options);
  if (!loaded.ok) {
    // Missing protocol schemas do not depend on the manifest's other mistakes: say so now,
    // rather than after those are fixed (unless `protocol` itself is broken).
    const protocol = loaded.protocol
      ? unavailableSchemas(
          loaded.protocol.revisions,
          loaded.protocol.location,
          schemaLocation(options, loaded.protocol.project),
        )
      : [];
    return {
      ok: false,
      diagnostics: sortDiagnostics([...loaded.diagnostics, ...protocol]),
      ...(loaded.inputs ? { inputs: loaded.inputs } : {}),
    };
  }
  const { model, warnings, absolute, display } = loaded;
  const schemaOptions = schemaLocation(options, loaded.project);
  const fail = (diagnostics: readonly Diagnostic[]): GenerateResult => ({
    ok: false,
    diagnostics: sortDiagnostics([...warnings, ...diagnostics]),
  });

  const output = outputFolder(options, loaded);
  if (output.outside) return fail([output.outside]);
  phase(`reading ${count(model.revisions.length, "protocol schema")}`);
  const unavailable = unavailableSchemas(model.revisions, model.revisionsLocation, schemaOptions);
  if (unavailable.length > 0) return fail(unavailable);
  const { protocols, diagnostics: protocolDiagnostics } = loadProtocols(model, schemaOptions);
  if (protocolDiagnostics.length > 0) return fail(protocolDiagnostics);

  // emit: a pure function of the model; every problem was found by the phases before it.
  const { emitFiles } = await import("./emit/emit.js");
  const banner = bannerOf(model, protocols, absolute, options.version);
  phase(
    `emitting ${count(model.tools.length, "tool")}, ${count(model.resources.length + model.resourceTemplates.length, "resource")}, ${count(model.prompts.length, "prompt")} for ${count(protocols.length, "revision")}`,
  );
  const files = emitFiles(model, protocols, banner);
  return {
    ok: true,
    warnings: sortDiagnostics(warnings),
    generated: {
      outDir: model.output,
      files,
      inputs: [...model.inputFiles, ...protocols.map((p) => resolve(p.schema.file))],
      absentInputs: absentInputs(protocols, schemaOptions),
      bannerSource: banner.manifest,
      outDisplay: display(model.output),
      outLocation: output.location,
      outFrom: output.from,
    },
  };
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** Where protocol schemas are looked for: the options' --schema, --schema-dir and environment, joined by the manifest's `protocolSchemas`. */
function schemaLocation(options: GenerateOptions, project: ProjectSchemas | undefined): SchemaLocationOptions {
  const cwd = options.cwd ?? process.cwd();
  return {
    ...(options.schemaFile === undefined ? {} : { schemaFile: resolve(cwd, options.schemaFile) }),
    ...(options.schemaDir === undefined ? {} : { schemaDir: resolve(cwd, options.schemaDir) }),
    ...(options.env === undefined ? {} : { env: options.env }),
    project,
  };
}

/** Why the protocol schemas of `revisions` cannot be used (too many for --schema, or not on disk). */
function unavailableSchemas(
  revisions: readonly Revision[],
  location: Diagnostic["location"],
  schemaOptions: SchemaLocationOptions,
): Diagnostic[] {
  if (schemaOptions.schemaFile && revisions.length > 1) {
    return [
      {
        location,
        message: `--schema names one schema.json but the manifest selects ${revisions.length} revisions; use --schema-dir <dir> holding <revision>/schema.json`,
      },
    ];
  }
  const missing = missingRevisions(revisions, schemaOptions);
  return missing.length > 0 ? [missingSchemas(missing, schemaOptions, location)] : [];
}

/** Where the output folder came from and where a message about it points; `outside` when it may not be written (outside the project root). */
function outputFolder(
  options: GenerateOptions,
  { model, absolute, manifestFile, declaredOutput, positions }: LoadedModel,
): { from: Generated["outFrom"]; location: Diagnostic["location"]; outside?: Diagnostic } {
  const manifestOutput = typeof declaredOutput === "string" ? declaredOutput : undefined;
  const from = options.out !== undefined ? "--out" : manifestOutput !== undefined ? "output" : "default";
  const location: Diagnostic["location"] =
    from === "--out"
      ? { file: manifestFile }
      : from === "output"
        ? positions.value("/output")
        : { file: manifestFile, line: 1, col: 1 };
  if (from === "--out" || options.allowOutside) return { from, location };
  const escape = outsideProjectRoot(dirname(absolute), model.output);
  if (!escape) return { from, location };
  const what = from === "output" ? `output ${quote(manifestOutput!)}` : "the default output folder ./mcp";
  const how = escape.through ? ` through a symbolic link (it resolves to ${escape.real})` : "";
  const message = `${what} leads outside the project root (the folder holding ${basename(absolute)})${how}; choose a folder inside it, or pass --allow-outside to write there`;
  return { from, location, outside: { location, message } };
}

/** The protocol schema of each revision the manifest selects, as a model. */
function loadProtocols(
  model: ServerModel,
  schemaOptions: SchemaLocationOptions,
): { protocols: ProtocolModel[]; diagnostics: Diagnostic[] } {
  const protocols: ProtocolModel[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const revision of model.revisions) {
    const loaded = loadProtocolSchema(revision, schemaOptions, model.revisionsLocation);
    diagnostics.push(...loaded.diagnostics);
    if (loaded.schema) protocols.push(buildProtocolModel(loaded.schema));
  }
  return { protocols, diagnostics };
}

/** What the generated files' banner records: the version, the manifest, and the sha256 of every schema and inlined page. */
function bannerOf(
  model: ServerModel,
  protocols: readonly ProtocolModel[],
  manifest: string,
  version: GenerateOptions["version"],
): Banner {
  return {
    version,
    manifest: toPosix(relative(model.output, manifest)),
    protocols: protocols.map((p) => ({ revision: p.revision, sha256: p.schema.sha256 })),
    inlined: model.apps.map((app) => ({
      uri: app.uri,
      file: app.source,
      sha256: createHash("sha256").update(app.html).digest("hex"),
    })),
  };
}

/** The schema files looked at before the one used: creating one of them changes what a run reads. */
function absentInputs(protocols: readonly ProtocolModel[], schemaOptions: SchemaLocationOptions): string[] {
  return protocols.flatMap((p) => {
    const candidates = schemaCandidates(p.revision, schemaOptions).map((c) => resolve(c.file));
    return candidates.slice(0, candidates.indexOf(resolve(p.schema.file)));
  });
}
