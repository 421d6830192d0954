// `mcp-gen diff` as pure functions on small hand-written schemas: compact types, field-by-field
// changes, methods by role, the content block union, and what a schema reaches through $refs.
import { describe, expect, it } from "vitest";
import { contentBlockChanges, contentBlocks } from "../../generator/diff/manifest-impact.js";
import {
  compactType,
  diffProtocols,
  reachedTypes,
  schemaChanges,
  stableJson,
} from "../../generator/diff/protocol-diff.js";
import type { ProtocolSchema, SchemaObject } from "../../generator/load/protocol.js";
import type { Revision } from "../../generator/load/revisions.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const request = (method: string) => ({
  type: "object",
  properties: { method: { const: method }, params: { type: "object" } },
  required: ["method"],
});
const notification = (method: string) => ({
  type: "object",
  properties: { method: { const: method } },
  required: ["method"],
});
const schema = (revision: Revision, definitions: Record<string, SchemaObject>): ProtocolSchema => ({
  revision,
  file: "test",
  sha256: "",
  dialect: "2020-12",
  era: "modern",
  released: true,
  definitions,
  patches: [],
});

describe("compactType", () => {
  it.each([
    [{ type: "string" }, "string"],
    [{ type: ["string", "number"] }, "string | number"],
    [{ enum: ["a", "b"] }, '"a" | "b"'],
    [{ const: "2.0" }, '"2.0"'],
    [ref("Foo"), "Foo"],
    [{ $ref: "#/definitions/Bar" }, "Bar"],
    [{ type: "array", items: ref("Foo") }, "Foo[]"],
    [{ type: "array", items: { anyOf: [ref("A"), ref("B")] } }, "(A | B)[]"],
    [{ type: "object", properties: { a: { type: "string" }, b: ref("B") }, required: ["a"] }, "{ a: string; b?: B }"],
    [{ type: "object", additionalProperties: { type: "integer" } }, "Record<string, integer>"],
    [{ type: "object" }, "object"],
    [{}, "unknown"],
  ])("%j is %s", (input, expected) => {
    expect(compactType(input)).toBe(expected);
  });
});

describe("schemaChanges", () => {
  it("lists fields added, removed, retyped, and required <-> optional, nested fields by path", () => {
    const before = {
      type: "object",
      properties: {
        a: { type: "string" },
        b: { type: "number" },
        gone: ref("Old"),
        params: { type: "object", properties: { x: { type: "string" } } },
      },
      required: ["a"],
    };
    const after = {
      type: "object",
      properties: {
        a: { type: "string" },
        b: { type: ["number", "string"] },
        params: { type: "object", properties: { x: { type: "string" }, y: ref("Y") }, required: ["x"] },
        fresh: { type: "boolean" },
      },
      required: ["b", "fresh"],
    };
    expect(schemaChanges(before, after)).toEqual([
      { path: "gone", change: "removed", from: "Old (optional)" },
      { path: "a", change: "optional" },
      { path: "b", change: "type", from: "number", to: "number | string" },
      { path: "b", change: "required" },
      { path: "params.x", change: "required" },
      { path: "params.y", change: "added", to: "Y (optional)" },
      { path: "fresh", change: "added", to: "boolean" },
    ]);
  });

  it("lists enum/const values and union members added and removed, and other keywords that differ", () => {
    expect(schemaChanges({ enum: ["debug", "info", "trace"] }, { enum: ["debug", "info", "notice"] })).toEqual([
      { path: "", change: "values", added: ['"notice"'], removed: ['"trace"'] },
    ]);
    expect(schemaChanges({ anyOf: [ref("Text"), ref("Image")] }, { anyOf: [ref("Text"), ref("Audio")] })).toEqual([
      { path: "", change: "members", added: ["Audio"], removed: ["Image"] },
    ]);
    expect(schemaChanges({ type: "string" }, { type: "string", format: "uri" })).toEqual([
      { path: "", change: "keywords", keywords: ["format"] },
    ]);
    expect(
      schemaChanges(
        { type: "object", properties: { values: { type: "array", items: { type: "string" } } } },
        { type: "object", properties: { values: { type: "array", items: { type: "string" }, maxItems: 100 } } },
      ),
    ).toEqual([{ path: "values", change: "keywords", keywords: ["maxItems"] }]);
  });

  it("ignores descriptions, but not a property named description", () => {
    const field = (description: string) => ({
      type: "object",
      description,
      properties: { description: { type: "string", description } },
    });
    expect(schemaChanges(field("one"), field("two"))).toEqual([]);
    expect(
      schemaChanges(
        { type: "object", properties: { description: { type: "string" } } },
        { type: "object", properties: {} },
      ),
    ).toEqual([{ path: "description", change: "removed", from: "string (optional)" }]);
  });
});

describe("diffProtocols", () => {
  const before = schema("2025-11-25", {
    ClientRequest: { anyOf: [ref("InitializeRequest"), ref("PingRequest")] },
    ServerRequest: { anyOf: [ref("PingRequest"), ref("ElicitRequest")] },
    ClientNotification: { anyOf: [ref("ProgressNotification")] },
    ServerNotification: { anyOf: [ref("ProgressNotification")] },
    InitializeRequest: request("initialize"),
    PingRequest: request("ping"),
    ElicitRequest: request("elicitation/create"),
    ProgressNotification: notification("notifications/progress"),
    Role: { enum: ["user", "assistant"], description: "old words" },
    Gone: { type: "string" },
  });
  const after = schema("2026-07-28", {
    ClientRequest: { anyOf: [ref("DiscoverRequest")] },
    ServerNotification: { anyOf: [ref("ProgressNotification")] },
    InputRequest: { anyOf: [ref("ElicitRequest")] },
    DiscoverRequest: request("server/discover"),
    ElicitRequest: request("elicitation/create"),
    ProgressNotification: notification("notifications/progress"),
    Role: { enum: ["user", "assistant"], description: "new words" },
  });
  const diff = diffProtocols(before, after);

  it("finds methods added, removed and moved between roles from the schemas' unions", () => {
    expect(diff.methods).toEqual({
      added: [{ method: "server/discover", from: [], to: ["client request"] }],
      removed: [
        { method: "initialize", from: ["client request"], to: [] },
        { method: "ping", from: ["client request", "server request"], to: [] },
      ],
      moved: [
        { method: "elicitation/create", from: ["server request"], to: ["input request"] },
        {
          method: "notifications/progress",
          from: ["client notification", "server notification"],
          to: ["server notification"],
        },
      ],
    });
  });

  it("finds types added, removed, changed, and changed in descriptions only", () => {
    expect(diff.types.added).toEqual(["DiscoverRequest", "InputRequest"]);
    expect(diff.types.removed).toEqual([
      "ClientNotification",
      "Gone",
      "InitializeRequest",
      "PingRequest",
      "ServerRequest",
    ]);
    expect(diff.types.changed).toEqual([
      {
        name: "ClientRequest",
        changes: [
          { path: "", change: "members", added: ["DiscoverRequest"], removed: ["InitializeRequest", "PingRequest"] },
        ],
      },
    ]);
    expect(diff.types.descriptionOnly).toEqual(["Role"]);
  });
});

describe("content blocks and reach", () => {
  const content = (items: unknown) => ({
    CallToolResult: { type: "object", properties: { content: { type: "array", items } } },
  });
  const text = (meta: unknown) => ({ type: "object", properties: { type: { const: "text" }, _meta: meta } });
  const before = schema("2024-11-05", {
    ...content({ anyOf: [ref("TextContent"), ref("ImageContent")] }),
    TextContent: text({ type: "object" }),
    ImageContent: { type: "object" },
  });
  const after = schema("2025-03-26", {
    ...content(ref("ContentBlock")),
    ContentBlock: { anyOf: [ref("TextContent"), ref("AudioContent")] },
    TextContent: text(ref("Meta")),
    Meta: { type: "object" },
    AudioContent: { type: "object" },
  });

  it("reads the union inline (older revisions) or behind ContentBlock", () => {
    expect(contentBlocks(before.definitions)).toEqual(["TextContent", "ImageContent"]);
    expect(contentBlocks(after.definitions)).toEqual(["TextContent", "AudioContent"]);
  });

  it("names members added, removed, and changed with the changed types they reach", () => {
    expect(contentBlockChanges(before, after, diffProtocols(before, after))).toEqual({
      added: ["AudioContent"],
      removed: ["ImageContent"],
      changed: [{ name: "TextContent", types: ["TextContent"] }],
    });
  });

  it("follows $refs transitively, each definition once, cycles included", () => {
    const definitions = {
      A: { type: "object", properties: { b: ref("B"), self: ref("A") } },
      B: { type: "array", items: { anyOf: [ref("C"), { type: "string" }] } },
      C: { type: "object" },
      D: {},
    };
    expect([...reachedTypes(definitions, [ref("A")])].sort()).toEqual(["A", "B", "C"]);
    expect([...reachedTypes(definitions, [{ type: "object", properties: { c: ref("C") } }])]).toEqual(["C"]);
  });
});

it("stableJson sorts keys at every level and keeps array order", () => {
  expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
});
