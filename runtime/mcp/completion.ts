// completion/complete: argument suggestions for prompts (`ref/prompt`) and resource
// templates (`ref/resource`), answered by the completers the manifest declares
// (`complete: true`). Arguments of known prompts and templates without a completer
// complete to nothing; unknown prompts, templates and arguments are invalid params.
// Generated code passes `completionFeature` to the server only when the manifest declares
// a completer, so servers without one do not carry this module.
import { ErrorCode, invalidParams, isObject, RpcError, type Params } from "../jsonrpc/messages.js";
import { hasCompletionsCapability } from "./revisions.js";
import type { CompletionEntry, CompletionFeature, ServerDefinition } from "./definition.js";
import type { CompletionContext, CompletionReturn, JsonObject } from "./handler-types.js";

/** The protocol's limit on values per completion result. */
export const MAX_COMPLETION_VALUES = 100;

type Completer<H> = CompletionEntry<H>["completers"][number]["complete"];

interface Target<H> {
  readonly what: string;
  readonly arguments: ReadonlySet<string>;
  readonly completers: ReadonlyMap<string, Completer<H>>;
}

const noCompleters: ReadonlyMap<string, never> = new Map<string, never>();

/** The completion tables of one server definition. */
class Completions<H> implements CompletionFeature<H> {
  private readonly prompts = new Map<string, Target<H>>();
  private readonly templates = new Map<string, Target<H>>();
  /** Whether any argument has a completer (the `completions` capability). */
  readonly enabled: boolean;

  constructor(definition: ServerDefinition<H>) {
    // Every prompt and template is a valid reference, with or without completers.
    for (const prompt of definition.prompts) {
      this.prompts.set(prompt.name, {
        what: `prompt ${prompt.name}`,
        arguments: new Set(prompt.arguments.map((a) => a.name)),
        completers: noCompleters,
      });
    }
    const listing = definition.listings[definition.revisions[0] ?? ""];
    for (const template of listing?.resourceTemplates ?? []) {
      const uriTemplate = template.uriTemplate;
      if (typeof uriTemplate !== "string") continue;
      const variables = [...uriTemplate.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
      this.templates.set(uriTemplate, {
        what: `resource template ${uriTemplate}`,
        arguments: new Set(variables),
        completers: noCompleters,
      });
    }
    let enabled = false;
    for (const entry of definition.completions ?? []) {
      const completers = new Map(entry.completers.map((c) => [c.argument, c.complete] as const));
      enabled ||= completers.size > 0;
      const target = { arguments: new Set(entry.arguments), completers };
      if (entry.ref.type === "ref/prompt")
        this.prompts.set(entry.ref.name, { what: `prompt ${entry.ref.name}`, ...target });
      else this.templates.set(entry.ref.uri, { what: `resource template ${entry.ref.uri}`, ...target });
    }
    this.enabled = enabled;
  }

  capabilitiesFor(capabilities: JsonObject, revision: string): JsonObject {
    if (capabilities.completions === undefined || hasCompletionsCapability(revision)) return capabilities;
    const { completions: _absent, ...known } = capabilities;
    return known;
  }

  async complete(
    handlers: H,
    params: Params | undefined,
    context: (args: Readonly<Record<string, string>>) => CompletionContext,
  ): Promise<Params> {
    const ref = params?.ref;
    const argument = params?.argument;
    if (!isObject(ref) || typeof ref.type !== "string")
      throw invalidParams("ref must be a prompt or resource template reference");
    if (!isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
      throw invalidParams("argument must have a string name and value");
    }
    let target: Target<H> | undefined;
    if (ref.type === "ref/prompt") {
      if (typeof ref.name !== "string") throw invalidParams("ref.name must be a string");
      target = this.prompts.get(ref.name);
      if (!target) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`);
    } else if (ref.type === "ref/resource") {
      if (typeof ref.uri !== "string") throw invalidParams("ref.uri must be a string");
      target = this.templates.get(ref.uri);
      if (!target) throw new RpcError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`);
    } else {
      throw invalidParams(`unknown reference type ${ref.type}`);
    }
    if (!target.arguments.has(argument.name)) throw invalidParams(`${target.what} has no argument ${argument.name}`);
    const completer = target.completers.get(argument.name);
    if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
    const given = isObject(params?.context) && isObject(params.context.arguments) ? params.context.arguments : {};
    const args: Record<string, string> = {};
    for (const [key, value] of Object.entries(given)) {
      if (typeof value === "string" && target.arguments.has(key))
        Object.defineProperty(args, key, { value, enumerable: true });
    }
    return { completion: completionResult(await completer(handlers, argument.value, context(args))) };
  }
}

/** completion/complete for a server whose manifest declares completers (`complete: true`). */
export function completionFeature<H>(definition: ServerDefinition<H>): CompletionFeature<H> {
  return new Completions(definition);
}

/** The protocol's `completion` object from what a completer returned. */
export function completionResult(returned: CompletionReturn): JsonObject {
  const list = Array.isArray(returned) ? (returned as readonly unknown[]) : (returned as { values?: unknown }).values;
  if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
    throw new RpcError(
      ErrorCode.InternalError,
      "A completer returned something other than a list of strings or { values }",
    );
  }
  const values = list as string[];
  const cut = values.length > MAX_COMPLETION_VALUES;
  const out: JsonObject = { values: cut ? values.slice(0, MAX_COMPLETION_VALUES) : values };
  if (Array.isArray(returned)) {
    // A plain list is every candidate there is.
    out.total = values.length;
    out.hasMore = cut;
    return out;
  }
  const { total, hasMore } = returned as { total?: unknown; hasMore?: unknown };
  if (typeof total === "number" && Number.isInteger(total) && total >= 0) out.total = total;
  else if (cut) out.total = values.length;
  out.hasMore = cut || hasMore === true;
  return out;
}
