// What mcp-gen knows about protocol revisions. A revision is a name: a date (`2026-07-28`) or
// `draft`. The released ones are listed in schema/revisions.json (their era, and where
// `schema fetch` downloads each and the sha256 it must have); everything else about a
// revision is read from its schema.json (load/protocol.ts) or, for what only the
// specification's prose says, from the small table of revisionFeatures below. A revision that
// is not released generates from its schema.json like any other, with a warning, and has what
// the newest released revision before it has.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** A protocol revision's name: `YYYY-MM-DD` or `draft` (see isRevisionName). */
export type Revision = string;
export type Era = "modern" | "legacy";
export type Dialect = "2020-12" | "draft-07";

export interface RevisionFacts {
  readonly era: Era;
  /** The JSON Schema dialect of the published file. */
  readonly dialect: Dialect;
  /** Where `mcp-gen schema fetch` downloads the official schema.json. */
  readonly url: string;
  /** The sha256 the downloaded file must have. */
  readonly sha256: string;
  readonly bytes: number;
}

/** The released revisions that have a feature: the first, and the last when a later revision dropped it. */
export type RevisionRange = readonly [since: string, until?: string];

/**
 * What the generator checks by revision, the way the runtime keeps what it does differently
 * (runtime/mcp/revisions.ts, a package the generator does not depend on; a test checks that
 * both agree where they overlap). A revision not released has what the released one before it has.
 */
export const revisionFeatures = {
  /** JSON-RPC batches: the server gets the runtime's batch support. */
  batches: ["2025-03-26", "2025-03-26"],
  /** Tool names should be 1 to 128 of A-Z, a-z, 0-9, _, - and . (SEP-986): others are warned about. */
  toolNameRules: ["2025-11-25"],
  /** Tool tasks: 2025-11-25's experimental tasks, then the io.modelcontextprotocol/tasks extension. */
  tasks: ["2025-11-25"],
  /** Tool arguments mirrored into Mcp-Param-* HTTP headers (SEP-2243). */
  mirroredParamHeaders: ["2026-07-28"],
  /** Output schemas (and structuredContent) of any JSON type, not only objects. */
  anyStructuredContent: ["2026-07-28"],
  /** The io.modelcontextprotocol/ui extension (MCP Apps) negotiated in capabilities. */
  appsExtension: ["2026-07-28"],
} as const satisfies Record<string, RevisionRange>;

/**
 * The released revision whose behaviour `revision` has: itself when released, else the newest
 * released one before it (a date compares as a date; `draft` or any other name comes after every
 * date). A revision older than all released ones behaves like the oldest.
 */
export function releasedBehaviourOf(revision: Revision): Revision {
  const released = [...knownRevisions().keys()];
  const dated = /^\d{4}-\d{2}-\d{2}$/.test(revision);
  return released.find((known) => !dated || known <= revision) ?? released.at(-1)!;
}

/** The era mcp-gen and the runtime give `revision`: that of the released revision behind it. */
export function eraOf(revision: Revision): Era {
  return knownRevisions().get(releasedBehaviourOf(revision))!.era;
}

/** Whether `revision` has one of the generator's `revisionFeatures`. */
export function hasFeature(revision: Revision, feature: keyof typeof revisionFeatures): boolean {
  const behaviour = releasedBehaviourOf(revision);
  const [since, until = behaviour]: RevisionRange = revisionFeatures[feature];
  return behaviour >= since && behaviour <= until;
}

let root: string | undefined;

/** The mcp-gen package folder (holding schema/), found from this module whether it runs from source or dist/. */
export function packageRoot(): string {
  if (root) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "schema", "revisions.json")) && existsSync(join(dir, "package.json"))) return (root = dir);
    if (dirname(dir) === dir)
      throw new Error("mcp-gen: cannot find its package folder (schema/revisions.json is missing)");
  }
}

let cached: ReadonlyMap<Revision, RevisionFacts> | undefined;

/** The released revisions, newest first. */
export function knownRevisions(): ReadonlyMap<Revision, RevisionFacts> {
  if (!cached) {
    const file = join(packageRoot(), "schema", "revisions.json");
    const data = JSON.parse(readFileSync(file, "utf8")) as { revisions: Record<Revision, RevisionFacts> };
    cached = new Map(Object.entries(data.revisions));
  }
  return cached;
}

/** Whether `value` is a released revision (one schema fetch can download and verify). */
export function isReleased(value: string): boolean {
  return knownRevisions().has(value);
}

/** Whether `value` can name a revision at all: a date `YYYY-MM-DD` or `draft`, the names of the official schema folders. */
export function isRevisionName(value: string): boolean {
  return value === "draft" || /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value);
}

/** The warning for a revision mcp-gen has not been told about, read from `file` all the same. */
export function unreleasedNote(revision: Revision, era: Era, file: string): string {
  const newest = [...knownRevisions().keys()][0];
  return `${revision} is not a released protocol revision; read from ${file} as the newest revision of the ${era} era (the runtime treats it as ${newest} where the schema does not say otherwise)`;
}
