// resources/read and prompts/get: finding the resource (fixed URI or template match) or
// prompt, checking prompt arguments and shaping what the handler returns. Generated code
// passes `resourcesFeature` / `promptsFeature` only when the manifest declares resources or
// prompts, so a tools-only server does not carry this module.
import { ErrorCode, invalidParams, isObject, RpcError, type Params } from "../jsonrpc/messages.js";
import type {
  CacheHint,
  PromptEntry,
  PromptsFeature,
  ResourceEntry,
  ResourcesFeature,
  ServerDefinition,
} from "./definition.js";
import type { JsonObject } from "./handler-types.js";
import { promptResult, resourceContents } from "./results.js";
import { isModern, resourceNotFoundCode } from "./revisions.js";

/**
 * From 2026-07-28 a resources/read result is cacheable and must carry ttlMs and
 * cacheScope: as the manifest declares (`cache:`), else stale at once and never shared,
 * since handlers may read per-user data.
 */
function readResult(contents: JsonObject[], revision: string, cache: CacheHint | undefined): Params {
  return isModern(revision)
    ? { contents, ttlMs: cache?.ttlMs ?? 0, cacheScope: cache?.scope ?? "private" }
    : { contents };
}

/** resources/read for a server whose manifest declares resources or resource templates. */
export function resourcesFeature<H>(definition: ServerDefinition<H>): ResourcesFeature<H> {
  const fixed = new Map<string, ResourceEntry<H>>(definition.resources.map((r) => [r.uri, r]));
  const templates = definition.resourceTemplates;
  return {
    async read(host, params, ctx, revision) {
      const uri = params?.uri;
      if (typeof uri !== "string") throw invalidParams("uri must be a string");
      const resource = host.isOff("resources", uri) ? undefined : fixed.get(uri);
      if (resource) {
        const returned = await host.guard(() => resource.read(host.handlers, ctx), `resource ${uri}`);
        return readResult(resourceContents(uri, resource.mimeType, returned), revision, resource.cache);
      }
      for (const template of templates) {
        if (host.isOff("resourceTemplates", template.name)) continue;
        const match = template.pattern.exec(uri);
        if (!match) continue;
        const variables: Record<string, string> = {};
        let decoded = true;
        template.variables.forEach((name, i) => {
          try {
            variables[name] = decodeURIComponent(match[i + 1] ?? "");
          } catch {
            decoded = false;
          }
        });
        if (!decoded) continue;
        const contents = await host.guard(
          () => template.read(host.handlers, variables, ctx),
          `resource template ${template.name}`,
        );
        return readResult(resourceContents(uri, template.mimeType, contents), revision, template.cache);
      }
      throw new RpcError(resourceNotFoundCode(revision), `Resource not found: ${uri}`, { uri });
    },
  };
}

/** prompts/get for a server whose manifest declares prompts. */
export function promptsFeature<H>(definition: ServerDefinition<H>): PromptsFeature<H> {
  const prompts = new Map<string, PromptEntry<H>>(definition.prompts.map((p) => [p.name, p]));
  return {
    async get(host, params, ctx) {
      const name = params?.name;
      if (typeof name !== "string") throw invalidParams("name must be a string");
      const prompt = host.isOff("prompts", name) ? undefined : prompts.get(name);
      if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
      const args = params?.arguments === undefined ? {} : params.arguments;
      if (!isObject(args)) throw invalidParams("arguments must be an object of strings");
      for (const [key, value] of Object.entries(args)) {
        if (typeof value !== "string")
          throw new RpcError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${key} must be a string`);
      }
      for (const argument of prompt.arguments) {
        if (argument.required && (!Object.hasOwn(args, argument.name) || args[argument.name] === undefined)) {
          throw new RpcError(
            ErrorCode.InvalidParams,
            `Invalid arguments for prompt ${name}: missing required argument '${argument.name}'`,
          );
        }
      }
      return promptResult(
        await host.guard(() => prompt.get(host.handlers, args as Record<string, string>, ctx), `prompt ${name}`),
      );
    },
  };
}
