// Known defects in the official protocol schema.json files, corrected at load time.
// Each patch names its revision and definition, says why, and checks that the defect
// is still there: when an upstream fix lands, the patch reports itself as obsolete
// instead of silently rewriting a correct schema. A patch also applies to the unreleased
// revisions after its own (a draft or new release copied from it) while they keep the defect.
// docs/cli.md ("Protocol schema patches") lists them.
import type { Revision } from "./revisions.js";

type Json = Record<string, unknown>;

export interface SchemaPatch {
  /** The released revision with the defect. */
  readonly revision: Revision;
  readonly definition: string;
  /** One sentence: what the schema gets wrong and what the patch changes. */
  readonly reason: string;
  /** Applies the fix to `definitions` in place; returns false when the defect is not present. */
  readonly apply: (definitions: Record<string, Json>) => boolean;
}

export const schemaPatches: readonly SchemaPatch[] = [
  {
    revision: "2026-07-28",
    definition: "JSONValue",
    reason:
      "JSONValue's primitive branch lists string, integer and boolean only; JSON (and schema.ts) also allow fractional numbers and null, so the branch becomes string | number | boolean | null.",
    apply(definitions) {
      const branches = definitions.JSONValue?.anyOf as Json[] | undefined;
      const primitive = branches?.find((b) => Array.isArray(b.type));
      const types = primitive?.type as string[] | undefined;
      if (!primitive || !types || (types.includes("number") && types.includes("null"))) return false;
      primitive.type = ["string", "number", "boolean", "null"];
      return true;
    },
  },
];
