// The server's version and description from the document's `info`, in the form `mcp-gen pack`
// needs (a semantic version, a description): mcp.yaml is the import's, so what pack asks for
// must be right when it is written, not added by hand.
import { semverPattern } from "../../pack/mcpb-manifest.js";

/** `info.version` when it is semantic; `1` and `v1.2` padded to 1.0.0 and 1.2.0; else 0.1.0. */
export function serverVersionOf(version: unknown): string {
  if (typeof version !== "string") return "0.1.0";
  if (semverPattern.test(version)) return version;
  const short = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$/.exec(version);
  return short === null ? "0.1.0" : `${short[1]}.${short[2] ?? "0"}.0`;
}

/** `info.description`, else a sentence naming the API. */
export function serverDescriptionOf(description: unknown, title: string): string {
  return typeof description === "string" && description.trim() !== ""
    ? description.trim()
    : `The ${title} API as MCP tools`;
}
