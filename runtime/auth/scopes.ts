// What a request needs beyond the policy's `requiredScopes`: the scopes of the tool, prompt,
// resource or resource template it names, from the generated per-entry tables. Kept out of
// the server class so that servers without auth do not carry it.
import type { Params } from "../jsonrpc/messages.js";
import type { ServerDefinition } from "../mcp/definition.js";

/** What scope checks read of a server's definition. */
export type ScopedDefinition = Pick<ServerDefinition<never>, "auth" | "resources" | "resourceTemplates" | "listings">;

const none: readonly string[] = [];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function of(table: Readonly<Record<string, readonly string[]>> | undefined, key: unknown): readonly string[] {
  return table !== undefined && typeof key === "string" && Object.hasOwn(table, key) ? table[key]! : none;
}

/** A resource URI's scopes: the fixed resource's, else those of the first template that matches it. */
function resourceScopes(definition: ScopedDefinition, uri: unknown): readonly string[] {
  const scopes = definition.auth?.scopes;
  if (typeof uri !== "string" || !scopes) return none;
  if (definition.resources.some((r) => r.uri === uri)) return of(scopes.resources, uri);
  const template = definition.resourceTemplates.find((t) => t.pattern.test(uri));
  return template ? of(scopes.resourceTemplates, template.name) : none;
}

/** Scopes a request for `method` with `params` needs on top of the policy's `requiredScopes`. */
export function entryScopes(
  definition: ScopedDefinition,
  method: string,
  params: Params | undefined,
): readonly string[] {
  const scopes = definition.auth?.scopes;
  if (!scopes) return none;
  switch (method) {
    case "tools/call":
      return of(scopes.tools, params?.name);
    case "prompts/get":
      return of(scopes.prompts, params?.name);
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
      return resourceScopes(definition, params?.uri);
    case "completion/complete": {
      // Completing a prompt's or template's arguments reveals as much as using it.
      const ref = isObject(params?.ref) ? params.ref : undefined;
      if (ref?.type === "ref/prompt") return of(scopes.prompts, ref.name);
      if (ref?.type !== "ref/resource" || typeof ref.uri !== "string") return none;
      // The ref names a template by its uriTemplate, which the listings hold beside its name.
      const listed = Object.values(definition.listings)[0]?.resourceTemplates.find((t) => t.uriTemplate === ref.uri);
      return listed === undefined ? resourceScopes(definition, ref.uri) : of(scopes.resourceTemplates, listed.name);
    }
    default:
      return none;
  }
}
