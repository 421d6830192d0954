// The released protocol revisions mcp-gen knows, read from schema/revisions.json.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type Revision = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05";
export type Era = "modern" | "legacy";
export type Dialect = "2020-12" | "draft-07";

export interface RevisionFacts {
  readonly era: Era;
  readonly dialect: Dialect;
  /** Where `mcp-gen schema fetch` downloads the official schema.json. */
  readonly url: string;
  /** The sha256 the downloaded file must have. */
  readonly sha256: string;
  readonly bytes: number;
}

let root: string | undefined;

/** The mcp-gen package folder (holding schema/), found from this module whether it runs from source or dist/. */
export function packageRoot(): string {
  if (root) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "schema", "revisions.json")) && existsSync(join(dir, "package.json"))) return (root = dir);
    if (dirname(dir) === dir) throw new Error("mcp-gen: cannot find its package folder (schema/revisions.json is missing)");
  }
}

let cached: ReadonlyMap<Revision, RevisionFacts> | undefined;

/** Revisions newest first. */
export function knownRevisions(): ReadonlyMap<Revision, RevisionFacts> {
  if (!cached) {
    const file = join(packageRoot(), "schema", "revisions.json");
    const data = JSON.parse(readFileSync(file, "utf8")) as { revisions: Record<Revision, RevisionFacts> };
    cached = new Map(Object.entries(data.revisions) as [Revision, RevisionFacts][]);
  }
  return cached;
}

export function isRevision(value: string): value is Revision {
  return knownRevisions().has(value as Revision);
}
