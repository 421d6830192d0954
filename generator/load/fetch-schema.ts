// Downloads the official schema.json of a revision and checks it against the sha256
// pinned in schema/revisions.json, so a cached schema is exactly the published one.
import { createHash } from "node:crypto";
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
    throw new FetchError(`cannot download ${url}: ${(error as Error).message}; check your network, or pass --schema-dir with a local copy`);
  }
  if (!response.ok) throw new FetchError(`${url} answered HTTP ${response.status}; pass --schema-dir with a local copy instead`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== facts.sha256) {
    throw new FetchError(`${url} has sha256 ${digest}, not the pinned ${facts.sha256}; the published file changed, so mcp-gen refuses it (upgrade mcp-gen, or use --schema-dir)`);
  }
  return bytes;
}
