// The second line of defence behind the compiler: a handlers object that lost a handler
// (through a cast, plain JavaScript or a stale build) is refused when the server is created,
// with every missing handler named, rather than failing on the first call that needs it.
import type { ServerDefinition } from "./definition.js";

/** Thrown by createServer when the handlers object lacks handlers the manifest declares; lists them all. */
export class MissingHandlersError extends Error {
  override readonly name = "MissingHandlersError";
  constructor(
    server: string,
    /** What the manifest calls each missing handler, in manifest order. */
    readonly missing: readonly string[],
  ) {
    super(`${server}: handlers missing for ${missing.join(", ")}`);
  }
}

/** Throws MissingHandlersError unless every handler the definition names is a function. */
export function checkHandlers<H>(definition: ServerDefinition<H>, handlers: H): void {
  const at = (path: readonly string[]) =>
    path.reduce<unknown>(
      (node, key) =>
        node !== null && (typeof node === "object" || typeof node === "function")
          ? (node as Record<string, unknown>)[key]
          : undefined,
      handlers,
    );
  const missing = (definition.handlerPaths ?? [])
    .filter(({ path }) => typeof at(path) !== "function")
    .map(({ of }) => of);
  if (missing.length > 0) throw new MissingHandlersError(definition.info.name, missing);
}
