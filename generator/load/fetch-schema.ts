// Downloads the official schema.json of a revision, or copies it from a local folder, and
// checks it against the sha256 pinned in schema/revisions.json, so a cached or pinned schema
// is exactly the published one.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { knownRevisions, type Revision } from "./revisions.js";

export class FetchError extends Error {}

/** Where the official files live; `MCP_GEN_SCHEMA_MIRROR` replaces it for mirrors with the same layout (schema/<revision>/schema.json). */
const officialBase = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/main/";

export function schemaUrl(revision: Revision, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const facts = knownRevisions().get(revision);
  if (!facts) throw new FetchError(`unknown revision ${revision}`);
  const mirror = env.MCP_GEN_SCHEMA_MIRROR;
  if (!mirror || !facts.url.startsWith(officialBase)) return facts.url;
  return `${mirror.endsWith("/") ? mirror : `${mirror}/`}${facts.url.slice(officialBase.length)}`;
}

export async function fetchSchema(revision: Revision, fetchImpl: typeof fetch = fetch): Promise<Uint8Array> {
  const facts = knownRevisions().get(revision);
  if (!facts) throw new FetchError(`unknown revision ${revision}`);
  const url = schemaUrl(revision);
  let response: Response;
  try {
    response = await fetchImpl(url, { signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new FetchError(
      `cannot download ${url}: ${(error as Error).message}; check your network, or pass --schema-dir with a local copy`,
    );
  }
  if (!response.ok)
    throw new FetchError(`${url} answered HTTP ${response.status}; pass --schema-dir with a local copy instead`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const digest = sha256(bytes);
  if (digest !== facts.sha256) {
    throw new FetchError(
      `${url} has sha256 ${digest}, not the pinned ${facts.sha256}; the published file changed, so mcp-gen refuses it (upgrade mcp-gen, or use --schema-dir)`,
    );
  }
  return bytes;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * A revision's schema.json copied from a local folder (`schema fetch --from <dir>`, `init`),
 * held to the same sha256 as a download: a copy is pinned only if it is the published file.
 */
export function copySchema(revision: Revision, fromDir: string): Uint8Array {
  const facts = knownRevisions().get(revision);
  if (!facts) throw new FetchError(`unknown revision ${revision}`);
  const file = join(fromDir, revision, "schema.json");
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FetchError(
      code === "ENOENT"
        ? `${file} not found; --from needs a folder holding <revision>/schema.json`
        : `cannot read ${file} (${code ?? String(error)})`,
    );
  }
  const digest = sha256(bytes);
  if (digest !== facts.sha256) {
    throw new FetchError(
      `${file} has sha256 ${digest}, not the pinned ${facts.sha256} of ${revision} (schema/revisions.json); it is not the published schema (an edited copy, or another revision's), so mcp-gen refuses it`,
    );
  }
  return bytes;
}
