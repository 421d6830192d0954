// Downloads the official schema.json of a revision and checks it against the sha256
// pinned in schema/revisions.json, so a cached schema is exactly the published one.
import { createHash } from "node:crypto";
import { knownRevisions, type Revision } from "./revisions.js";

export class FetchError extends Error {}

export async function fetchSchema(revision: Revision, fetchImpl: typeof fetch = fetch): Promise<Uint8Array> {
  const facts = knownRevisions().get(revision);
  if (!facts) throw new FetchError(`unknown revision ${revision}`);
  let response: Response;
  try {
    response = await fetchImpl(facts.url, { signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new FetchError(`cannot download ${facts.url}: ${(error as Error).message}; check your network, or pass --schema-dir with a local copy`);
  }
  if (!response.ok) throw new FetchError(`${facts.url} answered HTTP ${response.status}; pass --schema-dir with a local copy instead`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== facts.sha256) {
    throw new FetchError(`${facts.url} has sha256 ${digest}, not the pinned ${facts.sha256}; the published file changed, so mcp-gen refuses it (upgrade mcp-gen, or use --schema-dir)`);
  }
  return bytes;
}
