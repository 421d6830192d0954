// The diff for people (aligned plain-text tables under headings, a summary line) and for
// tools (one JSON document with sorted keys). Both are pure functions of the same data.
import type { ContentBlockChanges, ManifestImpact } from "./manifest-impact.js";
import { stableJson, type ProtocolDiff, type SchemaChange } from "./protocol-diff.js";

export interface DiffReport {
  readonly protocol: ProtocolDiff;
  readonly contentBlocks: ContentBlockChanges;
  readonly manifest?: ManifestImpact | undefined;
}

/** Each list's key and length. */
const lengths = (lists: object) =>
  Object.entries(lists).map(([key, list]) => [key, (list as unknown[]).length] as const);
const changes = (s: { changed: readonly string[]; added: readonly string[]; removed: readonly string[] }) =>
  s.changed.length + s.added.length + s.removed.length > 0;
/** A signature whose generated code changes: not one whose changes all lie in `_meta`. */
const realChange = (s: ManifestImpact["signatures"][number]) => changes(s) && !s.metaOnly;

/** The document `--json` prints: keys sorted at every level, entries in the report's own order (sorted by name). */
export function jsonReport(report: DiffReport): string {
  const { protocol, contentBlocks, manifest } = report;
  const signatures = manifest
    ? {
        all: manifest.signatures.length,
        changed: manifest.signatures.filter(realChange).length,
        metaOnly: manifest.signatures.filter((s) => s.metaOnly).length,
      }
    : null;
  const counts = (lists: object) => Object.fromEntries(lengths(lists));
  const summary = {
    methods: counts(protocol.methods),
    types: counts(protocol.types),
    contentBlocks: counts(contentBlocks),
    signatures,
  };
  return `${stableJson({ ...protocol, contentBlocks, manifest: manifest ?? null, summary }, 2)}\n`;
}

/** Rows with every column but the last padded to its widest cell. */
function table(rows: readonly (readonly string[])[], indent = "  "): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]!.length))) ?? [];
  return rows.map((row) =>
    `${indent}${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")}`.trimEnd(),
  );
}

/** Names as lines of at most `width` characters. */
function wrap(names: readonly string[], width = 100): string[] {
  const lines: string[] = [];
  for (const name of names) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + name.length + 2 <= width) lines[last] += ` ${name}`;
    else lines.push(name);
    if (name !== names[names.length - 1]) lines[lines.length - 1] += ",";
  }
  return lines.map((line) => `  ${line}`);
}

function detail(change: SchemaChange): string {
  const listed = (label: string, items: readonly string[] | undefined) =>
    items && items.length > 0 ? [`${label} ${items.join(", ")}`] : [];
  switch (change.change) {
    case "added":
      return change.to!;
    case "removed":
      return change.from!;
    case "type":
      return `${change.from} → ${change.to}`;
    case "required":
      return "optional → required";
    case "optional":
      return "required → optional";
    case "keywords":
      return `differs in ${change.keywords!.join(", ")}`;
    default:
      return [...listed("added", change.added), ...listed("removed", change.removed)].join("; ");
  }
}

const none = (names: readonly string[]) => (names.length > 0 ? names.join(", ") : "-");

/** Changed type names with the fields that changed: `AudioContent (_meta)`. */
function withFields(protocol: ProtocolDiff): (names: readonly string[]) => string[] {
  const fields = new Map(
    protocol.types.changed.map((t) => [
      t.name,
      [...new Set(t.changes.map((c) => (c.path === "" ? c.change : c.path)))],
    ]),
  );
  return (names) => names.map((name) => (fields.has(name) ? `${name} (${fields.get(name)!.join(", ")})` : name));
}

/** `3 added, 13 removed, 4 moved`: the length of each list. */
const counted = (lists: object) =>
  lengths(lists)
    .map(([key, length]) => `${length} ${key}`)
    .join(", ");

export function textReport(report: DiffReport, options: { descriptions: boolean }): string {
  const { protocol, contentBlocks, manifest } = report;
  const { methods, types } = protocol;
  const changedFields = withFields(protocol);
  const lines: string[] = [`mcp-gen diff ${protocol.from} → ${protocol.to}`];
  const section = (heading: string, body: string[]) =>
    lines.push("", heading, ...(body.length > 0 ? body : ["  (none)"]));
  /** A table under its header row, or nothing when there are no rows. */
  const rowsUnder = (header: string[], rows: string[][]) => (rows.length > 0 ? table([header, ...rows]) : []);

  const methodRows = Object.entries(methods).flatMap(([change, list]) =>
    list.map((m) => [change, m.method, none(m.from), none(m.to)]),
  );
  section(`Methods (${counted(methods)})`, rowsUnder(["change", "method", protocol.from, protocol.to], methodRows));
  section(`Types added (${types.added.length})`, wrap(types.added));
  section(`Types removed (${types.removed.length})`, wrap(types.removed));
  const hidden =
    types.descriptionOnly.length > 0 && !options.descriptions
      ? `; ${types.descriptionOnly.length} more differ only in descriptions, listed by --descriptions`
      : "";
  const changeRows = types.changed.flatMap((t) =>
    t.changes.map((c) => [t.name, c.path === "" ? "-" : c.path, c.change, detail(c)]),
  );
  section(
    `Types changed (${types.changed.length}${hidden})`,
    rowsUnder(["type", "field", "change", "detail"], changeRows),
  );
  if (options.descriptions)
    section(`Types whose descriptions alone changed (${types.descriptionOnly.length})`, wrap(types.descriptionOnly));
  const changedBlocks = contentBlocks.changed.map((m, i) => [
    i === 0 ? "changed" : "",
    `${m.name}: ${changedFields(m.types).join(", ")}`,
  ]);
  section(
    "Content blocks (tool result content)",
    table([
      ["added", none(contentBlocks.added)],
      ["removed", none(contentBlocks.removed)],
      ...(changedBlocks.length > 0 ? changedBlocks : [["changed", "-"]]),
    ]),
  );

  if (manifest) {
    const impact = (s: ManifestImpact["signatures"][number]) =>
      changes(s)
        ? `${s.metaOnly ? "only in _meta: " : ""}${[`changed ${none(changedFields(s.changed))}`, `added ${none(s.added)}`, `removed ${none(s.removed)}`].filter((p) => !p.endsWith(" -")).join("; ")}`
        : "unchanged";
    const { added, removed } = manifest.clientRequests;
    const clientRows =
      added.length + removed.length > 0
        ? [["client", "session requests", `added ${none(added)}; removed ${none(removed)}`]]
        : [];
    const rows = [...manifest.signatures.map((s) => [s.declaration, s.signature, impact(s)]), ...clientRows];
    section(`Manifest ${manifest.manifest} (protocol: ${manifest.revisions.join(", ")})`, [
      ...manifest.notes.map((note) => `  note: ${note}`),
      ...rowsUnder(["declaration", "signature", "impact"], rows),
    ]);
  }
  const signatures = manifest ? `; ${signatureSummary(manifest.signatures)}` : "";
  const { descriptionOnly, ...typeLists } = types;
  lines.push(
    "",
    `Summary: methods ${counted(methods)}; types ${counted(typeLists)} (${descriptionOnly.length} in descriptions only); content blocks ${counted(contentBlocks)}${signatures}`,
  );
  return `${lines.join("\n")}\n`;
}

/** `5 of 7 generated signatures change, 2 more only in _meta`; `7 of 7 generated signatures change only in _meta` when nothing else does. */
function signatureSummary(signatures: ManifestImpact["signatures"]): string {
  const real = signatures.filter(realChange).length;
  const metaOnly = signatures.filter((s) => s.metaOnly).length;
  const of = `of ${signatures.length} generated signatures change`;
  if (real === 0 && metaOnly > 0) return `${metaOnly} ${of} only in _meta`;
  return `${real} ${of}${metaOnly > 0 ? `, ${metaOnly} more only in _meta` : ""}`;
}
