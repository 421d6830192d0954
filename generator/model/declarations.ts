// What every kind of declaration (tool, resource, template, prompt, form) needs while it
// is turned into the model: the manifest with positions, the diagnostics being collected,
// the protocol revisions and auth section it is checked against, and the registries that
// catch two declarations claiming one identifier or type name.
import { quote, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { childPointer, type PositionIndex } from "../load/source.js";
import type { Revision } from "../load/revisions.js";
import type { IntactManifest } from "../manifest.js";
import type { Manifest, ManifestJsonSchema, ManifestMeta, ManifestTool } from "../manifest.gen.js";
import type { ManifestAnalysis } from "../validate/validate.js";
import { camelCase, identifierProblem, reservedIdentifiers } from "./names.js";
import type { AuthModel, ClientAsk, Declared, SchemaModel } from "./types.js";

/** What a handler may ask the client (`asks:`), and the request method and first revision of each. */
export const clientAsks = {
  elicitation: { method: "elicitation/create", since: "2025-06-18" },
  sampling: { method: "sampling/createMessage", since: "2024-11-05" },
  roots: { method: "roots/list", since: "2024-11-05" },
} as const satisfies Record<ClientAsk, { method: string; since: Revision }>;

/**
 * Each kind's map in the manifest, and the suffixes of the type names it generates; every
 * generated type name is registered to catch collisions.
 */
const kinds = {
  tool: { field: "tools", typeSuffixes: ["Input", "Args", "Output"] },
  prompt: { field: "prompts", typeSuffixes: ["PromptArgs"] },
  template: { field: "resourceTemplates", typeSuffixes: ["Variables"] },
  resource: { field: "resources", typeSuffixes: [] },
  form: { field: "elicitations", typeSuffixes: [] },
} as const satisfies Record<string, { field: EntrySection; typeSuffixes: readonly string[] }>;

type DeclarationKind = keyof typeof kinds;

/** The top-level maps of the manifest whose entries are declarations, keyed by name. */
type EntrySection = "tools" | "resources" | "resourceTemplates" | "prompts" | "elicitations" | "apps";
/** An entry of such a map as the manifest types it (`tools` → ManifestTool). */
type EntryOf<F extends EntrySection> = NonNullable<Manifest[F]>[string];

/** What the declarations of every kind may set, as a tool sets it (a form sets no title, icons, asks or scopes). */
type SharedFields = Pick<ManifestTool, "identifier" | "title" | "description" | "icons" | "asks" | "scopes" | "_meta">;

interface Entry<D> {
  readonly key: string;
  readonly decl: D;
  readonly pointer: string;
}

interface DeclarationEntry<D> extends Entry<D> {
  readonly declared: Declared | undefined;
}

/** `{ key: value }` when value is defined, `{}` otherwise: keeps optional fields absent, not undefined. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
}

const lineCol = ({ line, col }: SourceLocation) => `${line}:${col}`;

interface DeclarationSettings {
  readonly positions: PositionIndex;
  /** The folder holding the manifest, which app files must be inside. */
  readonly manifestDir: string;
  /** The manifest without its broken parts. */
  readonly root: IntactManifest;
  /** Selected revisions; undefined when `protocol` is broken (checks that depend on it are skipped). */
  readonly revisions: readonly Revision[] | undefined;
  /** The checked `auth:` section; "broken" when its shape is invalid (scope checks are skipped). */
  readonly auth: AuthModel | undefined | "broken";
  /** JSON pointers of the manifest parts whose shape is invalid: they are skipped. */
  readonly broken: ReadonlySet<string>;
  /** What the validate pass computed about the manifest (parsed templates). */
  readonly analysis: ManifestAnalysis;
}

export class Declarations {
  readonly diagnostics: Diagnostic[] = [];
  readonly inputFiles = new Set<string>();
  /** Pointers of the declarations holding each type name and member, located only for a collision message. */
  private readonly typeNames = new Map<string, { pointer: string; what: string }>();
  private readonly members = new Map<string, Map<string, { key: string; pointer: string }>>();

  constructor(readonly settings: DeclarationSettings) {}

  get positions(): PositionIndex {
    return this.settings.positions;
  }

  /** Whether some selected revision is `since` or later; true when `protocol` is broken (no check). */
  supports(since: Revision): boolean {
    return this.settings.revisions === undefined || this.settings.revisions.some((r) => r >= since);
  }

  /**
   * The entries of a kind's map (`tools:`, …) with their shared fields (undefined after a
   * naming problem, which is reported), without the entries whose shape is invalid: their
   * semantic checks would only repeat the shape error or stumble over a value of the wrong type.
   */
  *declarations<K extends DeclarationKind>(kind: K): Generator<DeclarationEntry<EntryOf<(typeof kinds)[K]["field"]>>> {
    type Field = (typeof kinds)[K]["field"];
    for (const { key, decl, pointer } of this.entries<Field>(kinds[kind].field)) {
      yield { key, decl, pointer, declared: this.declare(kind, key, decl, pointer) };
    }
  }

  /** The entries of a top-level map (`tools:`, `apps:`, …) whose shape is valid (the others are cut out), without declaring anything. */
  *entries<F extends EntrySection>(field: F): Generator<Entry<EntryOf<F>>> {
    const sections: { readonly [S in EntrySection]?: Readonly<Record<string, EntryOf<S>>> | undefined } =
      this.settings.root;
    const map: Readonly<Record<string, EntryOf<F>>> = sections[field] ?? {};
    for (const [key, decl] of Object.entries(map)) yield { key, decl, pointer: childPointer(`/${field}`, key) };
  }

  /** Member name and shared fields of a declaration, honouring an explicit `identifier:`; reports collisions. */
  private declare(kind: DeclarationKind, key: string, decl: SharedFields, pointer: string): Declared | undefined {
    const { positions } = this;
    const explicit = decl.identifier;
    const member = explicit ?? camelCase(key);
    const problem = identifierProblem(member);
    if (problem) {
      this.diagnostics.push({
        location: explicit ? positions.value(childPointer(pointer, "identifier")) : positions.key(pointer),
        message:
          explicit && reservedIdentifiers.has(member)
            ? `identifier ${quote(member)} of ${kind} ${quote(key)} is a reserved word; choose another identifier`
            : `${kind} name ${quote(key)} ${problem}; rename it or set \`identifier:\` to the name its handler should have`,
      });
      return undefined;
    }
    const seen = this.members.get(kind) ?? new Map<string, { key: string; pointer: string }>();
    this.members.set(kind, seen);
    const other = seen.get(member);
    if (other) {
      this.diagnostics.push({
        location: positions.key(pointer),
        message: `${kind} ${quote(key)} and ${kind} ${quote(other.key)} (at ${lineCol(positions.key(other.pointer))}) both become the identifier ${quote(member)}; rename one or set \`identifier:\``,
      });
      return undefined;
    }
    seen.set(member, { key, pointer });
    const typeBase = member.charAt(0).toUpperCase() + member.slice(1);
    for (const suffix of kinds[kind].typeSuffixes) {
      const typeName = typeBase + suffix;
      const clash = this.typeNames.get(typeName);
      if (clash) {
        this.diagnostics.push({
          location: positions.key(pointer),
          message: `${kind} ${quote(key)} needs the type name ${typeName}, which ${clash.what} (at ${lineCol(positions.key(clash.pointer))}) already uses; rename one or set \`identifier:\``,
        });
        return undefined;
      }
      this.typeNames.set(typeName, { pointer, what: `${kind} ${quote(key)}` });
    }
    return {
      key,
      member,
      typeBase,
      ...optional("title", decl.title),
      ...optional("description", decl.description),
      ...optional("icons", decl.icons),
      asks: this.asksOf(decl.asks ?? [], pointer),
      scopes: this.scopesOf(decl.scopes ?? [], pointer, `${kind} ${quote(key)}`),
      ...optional("meta", this.metaOf(decl._meta, pointer, `${kind} ${quote(key)}`)),
    };
  }

  /** An entry's `_meta:`, each key of the specification's form; it needs a revision whose list entries carry `_meta`. */
  private metaOf(meta: ManifestMeta | undefined, pointer: string, what: string): ManifestMeta | undefined {
    if (meta === undefined) return undefined;
    const at = childPointer(pointer, "_meta");
    if (!this.supports(metaSince)) {
      this.diagnostics.push({
        location: this.positions.key(at),
        message: `${what} declares _meta, but list entries carry _meta from protocol ${metaSince} on and the manifest generates for ${this.settings.revisions!.join(", ")}; add a later revision to \`protocol\` or remove it`,
      });
    }
    for (const key of Object.keys(meta)) {
      const problem = metaKeyProblem(key);
      if (problem)
        this.diagnostics.push({
          location: this.positions.key(childPointer(at, key)),
          message: `_meta key ${quote(key)} of ${what} ${problem}`,
        });
    }
    return meta;
  }

  /** An entry's `asks:`, each of which needs a revision that has its request. */
  private asksOf(asks: readonly ClientAsk[], pointer: string): readonly ClientAsk[] {
    asks.forEach((ask, i) => {
      const since = clientAsks[ask].since;
      if (!this.supports(since)) {
        this.diagnostics.push({
          location: this.positions.value(childPointer(childPointer(pointer, "asks"), i)),
          message: `asks: ${quote(ask)} needs protocol ${since} or later, but the manifest generates for ${this.settings.revisions!.join(", ")}; add a later revision to \`protocol\` or remove it`,
        });
      }
    });
    return asks;
  }

  /** An entry's `scopes:`, each of which `auth.scopesSupported` must list. */
  private scopesOf(scopes: readonly string[], pointer: string, what: string): readonly string[] {
    const { auth } = this.settings;
    if (auth === "broken") return scopes;
    const at = childPointer(pointer, "scopes");
    if (scopes.length > 0 && !auth) {
      this.diagnostics.push({
        location: this.positions.key(at),
        message: `${what} declares scopes, but the manifest has no \`auth:\` section; add one (authorizationServers, scopesSupported) or remove \`scopes\``,
      });
      return [];
    }
    scopes.forEach((scope, i) => {
      const problem = auth && scopeProblem(scope, auth.scopesSupported);
      if (problem)
        this.diagnostics.push({ location: this.positions.value(childPointer(at, i)), message: `${what}: ${problem}` });
    });
    return scopes;
  }

  /** The JSON Schema `value` declared at `field` of the entry at `pointer`, as the validate pass resolved and checked it; undefined when absent or invalid. */
  schemaAt(value: ManifestJsonSchema | undefined, pointer: string, field: string): SchemaModel | undefined {
    return value === undefined ? undefined : this.settings.analysis.schemas.get(childPointer(pointer, field));
  }
}

/** The first revision whose Tool, Resource, ResourceTemplate and Prompt have `_meta`. */
export const metaSince = "2025-06-18";

/** A label of a `_meta` key's prefix: a letter, then letters, digits and hyphens, ending in a letter or digit. */
const metaLabel = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
/** A `_meta` key's name: empty, or alphanumerics at both ends with `-`, `_`, `.` and alphanumerics between. */
const metaName = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/**
 * Why `key` breaks the specification's rule for `_meta` keys (basic/index, "_meta"), or
 * undefined: an optional prefix of dot-separated labels and a slash, then a name; prefixes
 * whose labels have `modelcontextprotocol` or `mcp` followed by another label are reserved.
 */
export function metaKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf("/");
  const name = key.slice(slash + 1);
  if (slash >= 0) {
    const labels = key.slice(0, slash).split(".");
    if (!labels.every((label) => metaLabel.test(label))) {
      return "has a malformed prefix: write dot-separated labels (a letter, then letters, digits or hyphens, ending in a letter or digit) before the `/`";
    }
    if (labels.slice(0, -1).some((label) => ["mcp", "modelcontextprotocol"].includes(label.toLowerCase()))) {
      return "uses a prefix reserved for MCP itself; use a prefix of your own, such as your domain (`example.com/`)";
    }
  }
  if (!metaName.test(name))
    return "is not a valid name: it must start and end with a letter or digit, with only letters, digits, `-`, `_` and `.` between";
  return undefined;
}

/** Why `scope` cannot be used, if it cannot. */
export function scopeProblem(scope: string, supported: readonly string[]): string | undefined {
  if (scope === "offline_access") {
    return 'scope "offline_access" is for the authorization server to grant (refresh tokens); a resource never asks for it (clients add it themselves when the authorization server supports it)';
  }
  if (!supported.includes(scope)) {
    return `scope ${quote(scope)} is not in auth.scopesSupported${supported.length > 0 ? ` (${supported.map(quote).join(", ")})` : ""}; add it there or fix the name`;
  }
  return undefined;
}
