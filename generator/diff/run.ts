// `mcp-gen diff <old> <new> [manifest]`: reads both protocol schemas the way generate does,
// and the manifest (./mcp.yaml when present) up to its model, then prints the report.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { err, formatDiagnostic, isWarning } from "../diagnostics.js";
import { loadProtocolSchema, missingRevisions, missingSchemas, type ProtocolSchema } from "../load/protocol.js";
import { isReleased, isRevisionName, knownRevisions, unreleasedNote, type Revision } from "../load/revisions.js";
import { loadModel } from "../pipeline.js";
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

export function runDiff(args: DiffArgs): number {
  const revisions: Revision[] = [args.from, args.to];
  // The manifest is optional: named, or ./mcp.yaml when there is one. Its `protocolSchemas` is where the schemas are (after the flag and the environment).
  const manifestPath = args.manifest ?? (existsSync("mcp.yaml") ? "mcp.yaml" : undefined);
  const read = manifestPath === undefined ? undefined : loadModel({ manifest: manifestPath });
  const project = read === undefined ? undefined : read.ok ? read.project : read.protocol?.project;
  const options = { schemaDir: args.schemaDir === undefined ? undefined : resolve(args.schemaDir), project };
  // A revision that is not released is diffed (with a warning) when its schema.json is there.
  const unknown = revisions.filter(
    (r) => !isReleased(r) && (!isRevisionName(r) || missingRevisions([r], options).length > 0),
  );
  if (unknown.length > 0) {
    err(`unknown revision ${unknown.join(", ")}; known: ${[...knownRevisions().keys()].join(", ")}`);
    return 2;
  }
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
  for (const schema of [before, after].filter(
    (s, i, both) => !s.released && both.findIndex((o) => o.revision === s.revision) === i,
  ))
    err(`warning: ${unreleasedNote(schema.revision, schema.era, schema.file)}`);

  if (read && !read.ok) {
    for (const diagnostic of read.diagnostics.filter((d) => !isWarning(d))) err(formatDiagnostic(diagnostic));
    return 1;
  }
  const protocol = diffProtocols(before, after);
  const report = {
    protocol,
    contentBlocks: contentBlockChanges(before, after, protocol),
    manifest: read?.ok ? manifestImpact(read.manifestFile, read.model, before, after, protocol) : undefined,
  };
  process.stdout.write(args.json ? jsonReport(report) : textReport(report, args));
  return 0;
}
