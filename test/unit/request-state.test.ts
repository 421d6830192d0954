// requestState sealing (runtime/mcp/input.ts): a state opens only as sealed, byte for byte.
import { describe, expect, it } from "vitest";
import { RequestStateCodec } from "../../runtime/mcp/input.js";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("RequestStateCodec", () => {
  const codec = new RequestStateCodec({ secret: "test secret" });

  it("opens what it sealed, for the method and target it was sealed for", async () => {
    const binding = { method: "tools/call", target: "delete", arguments: { id: "a", tags: ["x"] }, subject: "alice" };
    const state = await codec.seal(binding, { confirm: { action: "accept" } }, ["again"]);
    // The same arguments in another key order are the same request.
    const reordered = { ...binding, arguments: { tags: ["x"], id: "a" } };
    await expect(codec.open(state, reordered)).resolves.toEqual({
      answers: { confirm: { action: "accept" } },
      asked: ["again"],
    });
    for (const other of [
      { ...binding, target: "other" },
      { ...binding, method: "prompts/get" },
      { ...binding, arguments: { id: "b", tags: ["x"] } },
      { ...binding, subject: "mallory" },
      { ...binding, subject: undefined },
    ]) {
      await expect(codec.open(state, other), JSON.stringify(other)).rejects.toMatchObject({ code: -32602 });
    }
  });

  // A 32-byte HMAC is 43 base64url characters, the last carrying 2 unused bits: a decoder
  // that ignores them reads 4 different last characters as the same signature.
  it("rejects every other last character of the signature, including those differing only in unused bits", async () => {
    for (let n = 0; n < 8; n++) {
      const binding = { method: "tools/call", target: `t${n}` };
      const state = await codec.seal(binding, { n }, []);
      const last = state.at(-1)!;
      for (const other of alphabet) {
        if (other === last) continue;
        await expect(codec.open(`${state.slice(0, -1)}${other}`, binding), `${last} → ${other}`).rejects.toMatchObject({
          code: -32602,
        });
      }
    }
  });
});
