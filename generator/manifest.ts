// The manifest as every phase after the shape check reads it: the value the loader parsed,
// typed by ./manifest.gen.ts (generated from schema/manifest.schema.json, the schema the
// check validated it against), without the parts the check found broken. This is the one
// place where JSON becomes typed declarations; nothing after it casts a manifest value.
import { pointerTokens, type JsonValue } from "./load/source.js";
import type { Manifest } from "./manifest.gen.js";

/**
 * A manifest with its shape errors cut out. Any section may be missing: a broken section
 * (`/auth`) goes whole, a broken entry of a declaration section (`/tools/x`) alone.
 */
export type IntactManifest = Partial<Manifest>;

/**
 * `value` typed as the manifest, without the parts at the JSON pointers in `broken`
 * (sections and entries of sections, the parts the shape check names); undefined when the
 * manifest as a whole is broken. Everything else was accepted by the schema the type is
 * generated from, which is what justifies the type.
 */
export function intactManifest(value: JsonValue, broken: ReadonlySet<string>): IntactManifest | undefined {
  if (broken.has("") || value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  // Spread copies, never assignment: a key may be "__proto__".
  const intact: { [key: string]: JsonValue } = { ...value };
  for (const pointer of broken) {
    const [section = "", entry] = pointerTokens(pointer);
    const map = intact[section];
    if (entry === undefined) delete intact[section];
    else if (map !== null && typeof map === "object" && !Array.isArray(map)) {
      const rest = { ...map };
      delete rest[entry];
      intact[section] = rest;
    }
  }
  return intact as IntactManifest;
}
