// The manifest's `protocolSchemas:` setting: a folder of the project holding
// <revision>/schema.json, read by every command and filled by `mcp-gen schema fetch`.
// It must be relative and stay inside the project root (the folder holding the manifest),
// real path included: `schema fetch` writes there, so a manifest must not be able to point
// it anywhere else on the machine. A folder shared by several projects is what
// `--schema-dir` and `MCP_GEN_SCHEMA_DIR` are for.
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { quote, type Diagnostic } from "../diagnostics.js";
import { outsideProjectRoot } from "./project-root.js";
import type { ProjectSchemas } from "./protocol.js";
import type { JsonValue, PositionIndex } from "./source.js";

/** The setting of a manifest whose shape was checked (a non-string or empty value is a shape error, reported there). */
export function projectSchemasOf(
  manifestValue: JsonValue,
  positions: PositionIndex,
  manifest: { readonly absolute: string; readonly file: string },
): { project?: ProjectSchemas; diagnostics: Diagnostic[] } {
  const isObject = typeof manifestValue === "object" && manifestValue !== null && !Array.isArray(manifestValue);
  const written = isObject ? manifestValue.protocolSchemas : undefined;
  if (typeof written !== "string" || written === "") return { diagnostics: [] };
  const location = positions.value("/protocolSchemas");
  const projectRoot = dirname(manifest.absolute);
  const where = `the project root (the folder holding ${basename(manifest.absolute)})`;
  const elsewhere = "for a folder shared with other projects, pass --schema-dir or set MCP_GEN_SCHEMA_DIR instead";
  if (isAbsolute(written)) {
    return {
      diagnostics: [
        {
          location,
          message: `protocolSchemas ${quote(written)} is an absolute path; give a folder relative to ${where}, such as ./mcp-schema (${elsewhere})`,
        },
      ],
    };
  }
  const dir = resolve(projectRoot, written);
  const escape = outsideProjectRoot(projectRoot, dir);
  if (escape) {
    const how = escape.through ? ` through a symbolic link (it resolves to ${escape.real})` : "";
    return {
      diagnostics: [
        {
          location,
          message: `protocolSchemas ${quote(written)} leads outside ${where}${how}; choose a folder inside it (${elsewhere})`,
        },
      ],
    };
  }
  return { project: { dir, written, manifest: manifest.file, location }, diagnostics: [] };
}
