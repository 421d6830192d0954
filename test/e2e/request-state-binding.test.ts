// A 2026-07-28 requestState is good for the request it was issued for and nothing else: the
// same tool with the same arguments, retried by the same caller, answering the questions
// the server asked, before it expires. Probed over real HTTP on the everything example's
// delete_note (which asks the user to confirm) with raw requests: an approval obtained for
// one note must not delete another.
import { listenHttp, type HttpListener } from "@mcp-gen/runtime/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { createNotesServer } from "../../examples/everything/src/mcp/index.js";
import type { JsonObject } from "../../runtime/index.js";
import { httpClient, modernMeta, type RawClient } from "./raw-mcp.js";

const TTL_MS = 1_500;
let listener: HttpListener;

beforeAll(async () => {
  const server = createNotesServer(createHandlers({ changed: () => {} }), { requestState: { ttlMs: TTL_MS } });
  // A bearer token is its subject: enough to tell two callers apart.
  const verifyToken = (token: string) => ({
    subject: token,
    scopes: [],
    expiresAt: undefined,
    audience: [resource()],
    claims: {},
  });
  listener = await listenHttp(server, {
    port: 0,
    auth: { verifyToken, resource: "http://127.0.0.1/mcp", authorizationServers: ["http://127.0.0.1/issuer"] },
  });
});

afterAll(() => listener?.close());

const resource = () => "http://127.0.0.1/mcp";
const as = (subject: string): RawClient =>
  httpClient(listener.url, "modern", () => ({}), fetch, { authorization: `Bearer ${subject}` });
const meta = { _meta: modernMeta(false) };
const accept = { action: "accept", content: { confirm: true } };

/** delete_note's first round: the key it asks under and the requestState to echo. */
async function approval(client: RawClient, id: string): Promise<{ key: string; state: string }> {
  const first = await client.request("tools/call", { name: "delete_note", arguments: { id }, ...meta });
  expect(first.result).toMatchObject({ resultType: "input_required" });
  const key = Object.keys(first.result!.inputRequests as JsonObject)[0]!;
  return { key, state: first.result!.requestState as string };
}

const retry = (client: RawClient, id: string, state: string, inputResponses: JsonObject) =>
  client.request("tools/call", {
    name: "delete_note",
    arguments: { id },
    inputResponses,
    requestState: state,
    ...meta,
  });

/** Whether note `id` is still there. */
async function exists(client: RawClient, id: string): Promise<boolean> {
  const got = await client.request("tools/call", { name: "get_note", arguments: { id }, ...meta });
  return got.result?.isError !== true;
}

describe("requestState is bound to its request", () => {
  it("an approval to delete one note does not delete another", async () => {
    const alice = as("alice");
    const { key, state } = await approval(alice, "groceries");
    const replayed = await retry(alice, "launch-plan", state, { [key]: accept });
    expect(replayed.error).toMatchObject({ code: -32602, message: expect.stringContaining("other arguments") });
    expect(await exists(alice, "launch-plan")).toBe(true);
    // The approval still works for the note it was given for.
    const done = await retry(alice, "groceries", state, { [key]: accept });
    expect(done.result?.content).toEqual([{ type: "text", text: 'Deleted "Groceries"' }]);
  });

  it("another caller cannot use it", async () => {
    const { key, state } = await approval(as("alice"), "launch-plan");
    const stolen = await retry(as("mallory"), "launch-plan", state, { [key]: accept });
    expect(stolen.error).toMatchObject({ code: -32602, message: expect.stringContaining("another caller") });
    expect(await exists(as("alice"), "launch-plan")).toBe(true);
  });

  it("answers to questions the server did not ask are refused", async () => {
    const alice = as("alice");
    const { key, state } = await approval(alice, "launch-plan");
    const extra = await retry(alice, "launch-plan", state, { [key]: accept, unasked: accept });
    expect(extra.error).toMatchObject({ code: -32602, message: expect.stringContaining("inputResponses.unasked") });
    // Without a requestState the server asked nothing at all.
    const unprompted = await alice.request("tools/call", {
      name: "delete_note",
      arguments: { id: "launch-plan" },
      inputResponses: { [key]: accept },
      ...meta,
    });
    expect(unprompted.error).toMatchObject({ code: -32602, message: expect.stringContaining(`inputResponses.${key}`) });
    expect(await exists(alice, "launch-plan")).toBe(true);
  });

  it("it expires", async () => {
    const alice = as("alice");
    const { key, state } = await approval(alice, "launch-plan");
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    const late = await retry(alice, "launch-plan", state, { [key]: accept });
    expect(late.error).toMatchObject({ code: -32602, message: expect.stringContaining("expired") });
    expect(await exists(alice, "launch-plan")).toBe(true);
  });
});
