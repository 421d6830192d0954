// `mcp-gen diff <old> <new> [manifest]`: reads both protocol schemas the way generate does,
// and the manifest (./mcp.yaml when present) up to its model, then prints the report.
import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { formatDiagnostic, isWarning, type Diagnostic } from "../diagnostics.js";
import { loadProtocolSchema, missingRevisions, missingSchemas, type ProtocolSchema } from "../load/protocol.js";
import { isRevision, knownRevisions, type Revision } from "../load/revisions.js";
import { parseSource } from "../load/source.js";
import { buildServerModel, type ServerModel } from "../model/server.js";
import { checkManifestShape } from "../validate/manifest-shape.js";
import { contentBlockChanges, manifestImpact } from "./manifest-impact.js";
import { diffProtocols } from "./protocol-diff.js";
import { jsonReport, textReport } from "./report.js";

export interface DiffArgs {
  readonly from: string;
  readonly to: string;
  readonly manifest?: string | undefined;
  readonly schemaDir?: string | undefined;
  readonly json: boolean;
  readonly descriptions: boolean;
}

const err = (line: string) => process.stderr.write(`mcp-gen: ${line}\n`);

/** The manifest's model, or the diagnostics that stop it (warnings do not). */
function readManifest(path: string): { model?: ServerModel; file: string; diagnostics: Diagnostic[] } {
  const absolutePath = resolve(path);
  const display = (file: string) => relative(process.cwd(), file) || file;
  const file = display(absolutePath);
  let text: string;
  try {
    text = readFileSync(absolutePath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { file, diagnostics: [{ location: { file }, message: code === "ENOENT" ? "no such manifest; pass the path of your mcp.yaml" : `cannot read the manifest (${code ?? String(error)})` }] };
  }
  const parsed = parseSource(file, text);
  if (!parsed.source) return { file, diagnostics: parsed.diagnostics };
  const { value, positions } = parsed.source;
  const shape = checkManifestShape(value, positions);
  const built = buildServerModel({ file, absolutePath, value, positions, display }, undefined, shape.broken);
  const errors = [...shape.diagnostics, ...built.diagnostics].filter((d) => !isWarning(d));
  return errors.length > 0 || !built.model ? { file, diagnostics: errors } : { model: built.model, file, diagnostics: [] };
}

export function runDiff(args: DiffArgs): number {
  const unknown = [args.from, args.to].filter((r) => !isRevision(r));
  if (unknown.length > 0) {
    err(`unknown revision ${unknown.join(", ")}; known: ${[...knownRevisions().keys()].join(", ")}`);
    return 2;
  }
  const revisions = [args.from, args.to] as Revision[];
  const options = args.schemaDir === undefined ? {} : { schemaDir: resolve(args.schemaDir) };
  const missing = missingRevisions([...new Set(revisions)], options);
  if (missing.length > 0) {
    err(missingSchemas(missing, options, { file: "" }).message);
    return 2;
  }
  const loaded = revisions.map((revision) => loadProtocolSchema(revision, options, { file: "" }));
  const problems = loaded.flatMap((l) => l.diagnostics);
  for (const diagnostic of problems) err(formatDiagnostic(diagnostic));
  if (problems.length > 0) return 1;
  const [before, after] = loaded.map((l) => l.schema) as [ProtocolSchema, ProtocolSchema];

  // The manifest is optional: named, or ./mcp.yaml when there is one.
  const manifestPath = args.manifest ?? (existsSync("mcp.yaml") ? "mcp.yaml" : undefined);
  const read = manifestPath === undefined ? undefined : readManifest(manifestPath);
  for (const diagnostic of read?.diagnostics ?? []) err(formatDiagnostic(diagnostic));
  if (read && !read.model) return 1;
  const protocol = diffProtocols(before, after);
  const report = {
    protocol,
    contentBlocks: contentBlockChanges(before, after, protocol),
    manifest: read?.model && manifestImpact(read.file, read.model, before, after, protocol),
  };
  process.stdout.write(args.json ? jsonReport(report) : textReport(report, args));
  return 0;
}
