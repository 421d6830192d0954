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
  unreleasedRevisions,
  type ProjectSchemas,
  type SchemaLocationOptions,
} from "./load/protocol.js";
import { parseSource } from "./load/parse.js";
import { maxInlinedSchemas, type RefContext } from "./load/schema-refs.js";
import { buildProtocolModel, type ProtocolModel } from "./model/protocol.js";
import { isReleased, type Revision } from "./load/revisions.js";
import { childPointer, type PositionIndex } from "./load/source.js";
import { buildServerModel, revisionsOf } from "./model/server.js";
import type { ServerModel } from "./model/types.js";
import { validateManifest } from "./validate/validate.js";

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
  const refs: RefContext = { root: dirname(absolute), display, cache: new Map(), budget: { left: maxInlinedSchemas } };
  const shape = validateManifest(value, { file: manifestFile, positions, refs });
  const pinned =
    shape.broken.has("") || shape.broken.has("/protocolSchemas")
      ? { diagnostics: [] }
      : projectSchemasOf(value, positions, { absolute, file: manifestFile });
  phase(`checking ${manifestFile} and the schemas it references`);
  const built = buildServerModel(
    { absolutePath: absolute, positions },
    shape,
    options.out === undefined ? undefined : resolve(cwd, options.out),
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
      ...((built.inputFiles ?? built.model?.inputFiles) ? { inputs: built.inputFiles ?? built.model!.inputFiles } : {}),
      ...(protocolIntact
        ? {
            protocol: {
              revisions: revisionsOf(shape.manifest?.protocol),
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

/** Where protocol schemas are looked up: the command line's flags, then the manifest's `protocolSchemas`. */
function schemaLocationOptions(options: GenerateOptions, project: ProjectSchemas | undefined): SchemaLocationOptions {
  const cwd = options.cwd ?? process.cwd();
  return {
    ...(options.schemaFile === undefined ? {} : { schemaFile: resolve(cwd, options.schemaFile) }),
    ...(options.schemaDir === undefined ? {} : { schemaDir: resolve(cwd, options.schemaDir) }),
    ...(options.env === undefined ? {} : { env: options.env }),
    project,
  };
}

/**
 * Why the protocol schemas of `revisions` cannot be used (too many for --schema, or not on
 * disk), and a warning for each unreleased revision whose schema is found; `locate` places the
 * diagnostic of the revision at an index.
 */
function unavailableSchemas(
  revisions: readonly Revision[],
  location: Diagnostic["location"],
  schemaOptions: SchemaLocationOptions,
  locate: (index: number) => Diagnostic["location"] = () => location,
): Diagnostic[] {
  if (schemaOptions.schemaFile && revisions.length > 1) {
    return [
      {
        location,
        message: `--schema names one schema.json but the manifest selects ${revisions.length} revisions; use --schema-dir <dir> holding <revision>/schema.json`,
      },
    ];
  }
  const missing = missingRevisions(revisions.filter(isReleased), schemaOptions);
  return [
    ...unreleasedRevisions(revisions, schemaOptions, locate),
    ...(missing.length > 0 ? [missingSchemas(missing, schemaOptions, location)] : []),
  ];
}

/** A failed model load, with the missing protocol schemas it already knows of. */
function modelFailure(loaded: Extract<ModelResult, { ok: false }>, options: GenerateOptions): GenerateResult {
  // Missing protocol schemas do not depend on the manifest's other mistakes: say so now,
  // rather than after those are fixed (unless `protocol` itself is broken).
  const protocol = loaded.protocol
    ? unavailableSchemas(
        loaded.protocol.revisions,
        loaded.protocol.location,
        schemaLocationOptions(options, loaded.protocol.project),
      ).filter((d) => !isWarning(d))
    : [];
  return {
    ok: false,
    diagnostics: sortDiagnostics([...loaded.diagnostics, ...protocol]),
    ...(loaded.inputs ? { inputs: loaded.inputs } : {}),
  };
}

/** Where the output folder came from, and where a diagnostic about it points. */
interface OutputOrigin {
  readonly outFrom: Generated["outFrom"];
  readonly outLocation: Diagnostic["location"];
}

function outputOrigin(options: GenerateOptions, loaded: LoadedModel): OutputOrigin {
  const { manifestFile, declaredOutput, positions } = loaded;
  const outFrom = options.out !== undefined ? "--out" : typeof declaredOutput === "string" ? "output" : "default";
  const outLocation: Diagnostic["location"] =
    outFrom === "--out"
      ? { file: manifestFile }
      : outFrom === "output"
        ? positions.value("/output")
        : { file: manifestFile, line: 1, col: 1 };
  return { outFrom, outLocation };
}

/** An output folder the manifest chose (not --out) may not lead outside the project root unless allowed. */
function outsideRootDiagnostic(
  options: GenerateOptions,
  loaded: LoadedModel,
  { outFrom, outLocation }: OutputOrigin,
): Diagnostic | undefined {
  if (outFrom === "--out" || options.allowOutside) return undefined;
  const { absolute, declaredOutput, model } = loaded;
  const escape = outsideProjectRoot(dirname(absolute), model.output);
  if (!escape) return undefined;
  const what = outFrom === "output" ? `output ${quote(declaredOutput as string)}` : "the default output folder ./mcp";
  const how = escape.through ? ` through a symbolic link (it resolves to ${escape.real})` : "";
  return {
    location: outLocation,
    message: `${what} leads outside the project root (the folder holding ${basename(absolute)})${how}; choose a folder inside it, or pass --allow-outside to write there`,
  };
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** The protocol models of the manifest's revisions, or why they cannot be had; `notes` are warnings to keep. */
function loadProtocols(
  loaded: LoadedModel,
  schemaOptions: SchemaLocationOptions,
  strict: boolean | undefined,
): { protocols: ProtocolModel[]; notes: Diagnostic[] } | { diagnostics: Diagnostic[] } {
  const { model, positions } = loaded;
  const notes = unavailableSchemas(model.revisions, model.revisionsLocation, schemaOptions, (index) =>
    positions.value(childPointer("/protocol", index)),
  );
  const unavailable = notes.filter((d) => strict || !isWarning(d));
  if (unavailable.length > 0) return { diagnostics: unavailable.map(({ severity: _warning, ...asError }) => asError) };
  const protocols: ProtocolModel[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const revision of model.revisions) {
    const schema = loadProtocolSchema(revision, schemaOptions, model.revisionsLocation);
    diagnostics.push(...schema.diagnostics);
    if (schema.schema) protocols.push(buildProtocolModel(schema.schema));
  }
  return diagnostics.length > 0 ? { diagnostics } : { protocols, notes };
}

/** The banner every generated file carries: generator version, manifest, and the inputs' hashes. */
function bannerOf(version: string | undefined, loaded: LoadedModel, protocols: readonly ProtocolModel[]): Banner {
  const { model, absolute } = loaded;
  return {
    version,
    manifest: toPosix(relative(model.output, absolute)),
    protocols: protocols.map((p) => ({ revision: p.revision, sha256: p.schema.sha256 })),
    inlined: model.apps.map((app) => ({
      uri: app.uri,
      file: app.source,
      sha256: createHash("sha256").update(app.html).digest("hex"),
    })),
  };
}

/** Schema files looked for before the one found: creating one of them changes the output, so watch mode watches them. */
function absentSchemaInputs(protocols: readonly ProtocolModel[], schemaOptions: SchemaLocationOptions): string[] {
  return protocols.flatMap((p) => {
    const candidates = schemaCandidates(p.revision, schemaOptions).map((c) => resolve(c.file));
    return candidates.slice(0, candidates.indexOf(resolve(p.schema.file)));
  });
}

/**
 * The whole pipeline in memory: load → validate → model → protocol schemas → emit. Nothing is
 * written; the caller writes or checks `generated`.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const phase = options.onPhase ?? (() => {});
  const loaded = loadModel(options);
  if (!loaded.ok) return modelFailure(loaded, options);
  const { model, warnings, display } = loaded;
  const schemaOptions = schemaLocationOptions(options, loaded.project);
  const fail = (diagnostics: readonly Diagnostic[]): GenerateResult => ({
    ok: false,
    diagnostics: sortDiagnostics([...warnings, ...diagnostics]),
  });

  const origin = outputOrigin(options, loaded);
  const outside = outsideRootDiagnostic(options, loaded, origin);
  if (outside) return fail([outside]);

  phase(`reading ${count(model.revisions.length, "protocol schema")}`);
  const read = loadProtocols(loaded, schemaOptions, options.strict);
  if ("diagnostics" in read) return fail(read.diagnostics);
  const { protocols, notes } = read;

  // emit: a pure function of the model; every problem was found by the phases before it.
  const { emitFiles } = await import("./emit/emit.js");
  const banner = bannerOf(options.version, loaded, protocols);
  phase(
    `emitting ${count(model.tools.length, "tool")}, ${count(model.resources.length + model.resourceTemplates.length, "resource")}, ${count(model.prompts.length, "prompt")} for ${count(protocols.length, "revision")}`,
  );
  const files = emitFiles(model, protocols, banner);
  return {
    ok: true,
    warnings: sortDiagnostics([...warnings, ...notes]),
    generated: {
      outDir: model.output,
      files,
      inputs: [...model.inputFiles, ...protocols.map((p) => resolve(p.schema.file))],
      absentInputs: absentSchemaInputs(protocols, schemaOptions),
      bannerSource: banner.manifest,
      outDisplay: display(model.output),
      outLocation: origin.outLocation,
      outFrom: origin.outFrom,
    },
  };
}
