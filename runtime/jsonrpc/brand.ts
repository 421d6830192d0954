// Two copies of the runtime can meet in one program (a bundle holding both the sources and
// runtime/dist, two installed versions): an RpcError thrown by a handler compiled against
// one copy reaches a server of the other, where a plain `instanceof` says no and the error
// would go out as -32603. Branded classes recognise each other's instances by a registered
// symbol instead of by prototype identity.

/**
 * Makes `value instanceof cls` hold for instances of `cls` from any copy of the runtime:
 * its instances carry `Symbol.for("@mcp-gen/runtime.<name>")`. Subclasses keep the usual
 * prototype check (brand them too when they are checked across copies). Call it from the
 * class's static block, so that bundlers keep it with the class.
 */
export function brand(cls: abstract new (...args: never[]) => object, name: string): void {
  const key = Symbol.for(`@mcp-gen/runtime.${name}`);
  Object.defineProperty(cls.prototype, key, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      if (this !== cls) return Function.prototype[Symbol.hasInstance].call(this, value);
      return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[key] === true;
    },
  });
}
