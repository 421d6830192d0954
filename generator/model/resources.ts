// `resources:` and `resourceTemplates:` of the manifest: fixed URIs (each declared once)
// and RFC 6570 level 1 templates with their variables.
import { quote, type SourceLocation } from "../diagnostics.js";
import { childPointer } from "../load/source.js";
import type { ManifestResource, ManifestResourceTemplate } from "../manifest.gen.js";
import { optional, type Declarations } from "./declarations.js";
import type { Declared, ResourceFields, ResourceModel, ResourceTemplateModel } from "./types.js";

const uriScheme = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function resourceFields(
  declared: Declared,
  key: string,
  decl: ManifestResource | ManifestResourceTemplate,
): ResourceFields {
  return {
    ...declared,
    name: decl.name ?? key,
    ...optional("mimeType", decl.mimeType),
    ...optional("annotations", decl.annotations),
    subscribe: decl.subscribe === true,
    ...optional("cache", decl.cache),
  };
}

export function buildResources(context: Declarations): ResourceModel[] {
  const { diagnostics, positions } = context;
  const uris = new Map<string, SourceLocation>();
  const resources: ResourceModel[] = [];
  for (const { key, decl, pointer, declared } of context.declarations("resource")) {
    const uri = decl.uri;
    const uriAt = positions.value(childPointer(pointer, "uri"));
    if (!uriScheme.test(uri)) {
      diagnostics.push({
        location: uriAt,
        message: `resource uri ${quote(uri)} has no scheme; write an absolute URI such as "config://app" or "file:///path"`,
      });
      continue;
    }
    const previous = uris.get(uri);
    if (previous) {
      diagnostics.push({
        location: uriAt,
        message: `resource uri ${quote(uri)} is already declared at ${previous.line}:${previous.col}; each resource needs its own uri`,
      });
      continue;
    }
    uris.set(uri, uriAt);
    if (!declared) continue;
    resources.push({ ...resourceFields(declared, key, decl), uri, ...optional("size", decl.size) });
  }
  return resources;
}

/**
 * Why a template variable cannot be a key of the generated Variables type, or undefined.
 * RFC 6570 names may hold dots (`{user.id}`); such keys are written quoted. Percent-encoded
 * names are refused (their key would differ from the name a client sends), and so are names
 * of Object.prototype members, which the runtime would read from every object.
 */
function variableProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/.test(name)) return "use letters, digits, _ and single dots between them";
  if (name in Object.prototype) return "it is the name of a built-in property of every JavaScript object; rename it";
  return undefined;
}

export function buildResourceTemplates(context: Declarations): ResourceTemplateModel[] {
  const { diagnostics, positions } = context;
  const resourceTemplates: ResourceTemplateModel[] = [];
  for (const { key, decl, pointer, declared } of context.declarations("template")) {
    const uriTemplate = decl.uriTemplate;
    const templatePointer = childPointer(pointer, "uriTemplate");
    // Parsed by the validate pass, which reported the templates it could not parse.
    const template = context.settings.analysis.uriTemplates.get(templatePointer);
    if (!template) continue;
    if (!uriScheme.test(template.segments[0] ?? "")) {
      diagnostics.push({
        location: positions.value(templatePointer),
        message: `uriTemplate ${quote(uriTemplate)} must start with a URI scheme such as "weather://"`,
      });
      continue;
    }
    const badVariable = template.variables.find((v) => variableProblem(v) !== undefined);
    if (badVariable !== undefined) {
      diagnostics.push({
        location: positions.within(templatePointer, `{${badVariable}}`),
        message: `template variable ${quote(badVariable)} cannot be a property name of the generated Variables type; ${variableProblem(badVariable)!}`,
      });
      continue;
    }
    const variableSettings = decl.variables ?? {};
    const strayVariable = Object.keys(variableSettings).find((v) => !template.variables.includes(v));
    if (strayVariable !== undefined) {
      diagnostics.push({
        location: positions.key(childPointer(childPointer(pointer, "variables"), strayVariable)),
        message: `variables: ${quote(strayVariable)} is not a variable of uriTemplate ${quote(uriTemplate)}${template.variables.length > 0 ? `; its variables are ${template.variables.map(quote).join(", ")}` : ", which has none"}`,
      });
      continue;
    }
    if (!declared) continue;
    resourceTemplates.push({
      ...resourceFields(declared, key, decl),
      uriTemplate,
      template,
      completable: template.variables.filter((v) => variableSettings[v]?.complete === true),
    });
  }
  return resourceTemplates;
}
