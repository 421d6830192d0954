// Type-level tests, compiled (not run) by types.test.ts under strict settings. Each
// `@ts-expect-error` must meet an error: an unused one fails the compile, so every
// line marked here is proven to be a compile error.
import type { ClientChannel, ClientSession } from "@mcp-gen/runtime";
import { handlers } from "../../examples/weather/src/handlers.js";
import type { NotesHandlers } from "../../examples/everything/src/mcp/index.js";
import {
  connectWeatherClient,
  type V2024_11_05,
  type V2025_06_18,
  type V2026_07_28,
  type WeatherClient,
  type WeatherHandlers,
} from "../../examples/weather/src/mcp/index.js";

// A missing handler is a compile error.
// @ts-expect-error listCities is missing
export const missingTool: WeatherHandlers = { ...handlers, tools: { getForecast: handlers.tools.getForecast } };
// @ts-expect-error the handler-based prompt plan_trip needs a handler
export const missingPromptGroup: WeatherHandlers = {
  tools: handlers.tools,
  resources: handlers.resources,
  resourceTemplates: handlers.resourceTemplates,
};

// Wrong argument types are compile errors.
export const wrongArgs: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    // @ts-expect-error city is a string, not a number
    getForecast: (args: { city: number }) => ({
      structuredContent: { city: String(args.city), units: "metric", days: [] },
    }),
  },
};

// A handler asks the client only for what its `asks:` declares; get_forecast declares nothing.
export const undeclaredAsk: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    getForecast: async (args, ctx) => {
      // @ts-expect-error get_forecast has no `asks: [roots]`, so ctx.input cannot ask for roots/list
      await ctx.input({ where: { method: "roots/list", params: {} } });
      // @ts-expect-error nor can ctx.request send sampling/createMessage
      await ctx.request("sampling/createMessage", { messages: [], maxTokens: 1 });
      return { structuredContent: { city: args.city, units: "metric", days: [] } };
    },
  },
};

// Handlers receive defaults as present: days and units are not optional.
export const defaultsPresent: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    getForecast: (args) => {
      const days: number = args.days;
      const units: "metric" | "imperial" = args.units;
      return {
        structuredContent: {
          city: args.city,
          units,
          days: Array.from({ length: days }, () => ({
            date: "2026-01-01",
            high: 1,
            low: 0,
            conditions: "sunny" as const,
          })),
        },
      };
    },
  },
};

// A result that does not match `output` is a compile error.
export const wrongOutput: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    // @ts-expect-error days is required by the output schema
    getForecast: (args) => ({ structuredContent: { city: args.city, units: args.units } }),
  },
};
export const wrongEnum: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    getForecast: (args) => ({
      structuredContent: {
        city: args.city,
        units: args.units,
        // @ts-expect-error "hail" is not one of the declared conditions
        days: [{ date: "x", high: 1, low: 0, conditions: "hail" }],
      },
    }),
  },
};
// A tool with an output schema may still fail with a tool error.
export const toolError: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    getForecast: () => ({ content: [{ type: "text", text: "no such city" }], isError: true }),
  },
};

// Calling a method absent from a revision is a compile error.
export async function methodsPerRevision(
  modern: ClientSession<V2026_07_28.ClientRequestMap>,
  legacy: ClientSession<V2025_06_18.ClientRequestMap>,
  oldest: ClientSession<V2024_11_05.ClientRequestMap>,
): Promise<void> {
  await modern.request("server/discover");
  // @ts-expect-error server/discover exists from 2026-07-28 only
  await legacy.request("server/discover");
  // @ts-expect-error initialize does not exist in the stateless 2026-07-28 revision
  await modern.request("initialize", {
    protocolVersion: "2026-07-28",
    capabilities: {},
    clientInfo: { name: "x", version: "1" },
  });
  await legacy.request("ping");
  const called = await oldest.request("tools/call", { name: "x" });
  // @ts-expect-error structuredContent arrived in 2025-06-18
  void called.structuredContent;
  // @ts-expect-error wrong params: name must be a string
  await legacy.request("tools/call", { name: 42 });
  const listed = await legacy.request("tools/list");
  const firstName: string | undefined = listed.tools[0]?.name;
  void firstName;
}

// Client results are typed.
export async function typedClient(client: WeatherClient): Promise<void> {
  const result = await client.tools.getForecast({ city: "Paris" });
  if (!result.isError) {
    const date: string = result.structuredContent.days[0]!.date;
    const units: "metric" | "imperial" = result.structuredContent.units;
    // @ts-expect-error no such field in the output type
    void result.structuredContent.humidity;
    void date;
    void units;
  }
  // @ts-expect-error city is required
  await client.tools.getForecast({ days: 2 });
  // @ts-expect-error days must be an integer number, not a string
  await client.tools.getForecast({ city: "Paris", days: "2" });
  // @ts-expect-error text is a required prompt argument
  await client.prompts.summarize({ style: "formal" });
  const prompt = await client.prompts.summarize({ text: "hello" });
  const role: "user" | "assistant" = prompt.messages[0]!.role;
  const read = await client.resourceTemplates.cityWeather({ city: "oslo" });
  const uri: string = read.contents[0]!.uri;
  // @ts-expect-error the template has no variable named town
  await client.resourceTemplates.cityWeather({ town: "oslo" });
  void role;
  void uri;
}

// The server's requests and notifications reach typed client handlers.
export async function typedClientHandlers(channel: ClientChannel): Promise<void> {
  await connectWeatherClient(channel, {
    capabilities: { elicitation: {}, sampling: {} },
    requests: {
      "elicitation/create": (params) => {
        const message: string = params.message;
        void message;
        return { action: "accept", content: { city: "Oslo" } };
      },
      "roots/list": () => ({ roots: [{ uri: "file:///tmp" }] }),
      // @ts-expect-error a sampling answer needs role, content and model
      "sampling/createMessage": () => ({ text: "hi" }),
    },
    notifications: {
      "notifications/message": (params) => {
        const level: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency" =
          params.level;
        void level;
      },
      "notifications/progress": (params) => {
        const progress: number = params.progress;
        void progress;
      },
      // @ts-expect-error no such notification in any revision
      "notifications/weather/changed": () => {},
    },
  });
  await connectWeatherClient(channel, {
    // @ts-expect-error "maybe" is not an elicitation action
    requests: { "elicitation/create": () => ({ action: "maybe" }) },
  });
}

// Typed elicitation forms: ctx.elicit exists for handlers that declare `asks: [elicitation]`,
// one method per form of the manifest, with content typed by the form's schema.
export const typedForms: NotesHandlers["tools"]["deleteNote"] = async (_args, ctx) => {
  const answer = await ctx.elicit.confirmDelete("Delete it?");
  if (answer.action === "accept") {
    const confirm: boolean = answer.content.confirm;
    const reason: string | undefined = answer.content.reason;
    // @ts-expect-error the form has no field colour
    void answer.content.colour;
    void confirm;
    void reason;
  }
  // @ts-expect-error no form named confirmArchive
  await ctx.elicit.confirmArchive("Archive it?");
  return "done";
};
export const noForms: NotesHandlers["tools"]["getNote"] = async (_args, ctx) => {
  // @ts-expect-error Undeclared<"declare asks: [elicitation] on this handler in mcp.yaml">
  await ctx.elicit.confirmDelete("Delete it?");
  return "done";
};

// ctx.auth: the verified token's identity, typed; undefined where no token is verified (stdio).
export const readsAuth: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    listCities: (_args, ctx) => {
      const subject: string | undefined = ctx.auth?.subject;
      const scopes: readonly string[] | undefined = ctx.auth?.scopes;
      // @ts-expect-error ctx.auth may be undefined (no token over stdio)
      const always: string = ctx.auth.subject;
      // @ts-expect-error the identity is read-only
      ctx.auth!.scopes.push("notes:write");
      return `${subject ?? always} ${scopes?.join(" ") ?? ""}`;
    },
  },
};

// Capability omissions say what to declare (issue 15). A handler asks the client only for
// what its `asks:` declares, and the error names the `asks:` entry; notifyListChanged and
// setEnabled need `listChanged`, notifyResourceUpdated needs a `subscribe: true` entry.
// The Equal checks pin the text of each error; the @ts-expect-error lines prove the calls fail.
import type { McpServer, ToolContext } from "@mcp-gen/runtime";
import type { InputRequestsOf } from "../../runtime/mcp/handler-types.js";
import type { Asks, WeatherNames } from "../../examples/weather/src/mcp/index.js";
import type { NotesNames } from "../../examples/everything/src/mcp/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** The fix an Undeclared type carries (`never` when the type carries none). */
type FixOf<T> = T extends { readonly "mcp.yaml": infer Fix } ? Fix : never;
const holds = <T extends true>(): T | undefined => undefined;

// ctx.input in a handler without `asks:` (get_forecast's context is ToolContext<Asks<never>>).
type NoAsks = InputRequestsOf<Asks<never>, { where: { method: "roots/list" }; form: { method: "elicitation/create" } }>;
holds<Equal<FixOf<NoAsks["where"]["method"]>, "declare asks: [roots] on this handler in mcp.yaml">>();
holds<Equal<FixOf<NoAsks["form"]["method"]>, "declare asks: [elicitation] on this handler in mcp.yaml">>();
// ... and in one that declares another ask: delete_note asks for elicitation only.
type ElicitOnly = InputRequestsOf<
  Asks<"elicitation/create">,
  { ok: { method: "elicitation/create" }; model: { method: "sampling/createMessage" } }
>;
holds<Equal<FixOf<ElicitOnly["ok"]["method"]>, never>>();
holds<Equal<FixOf<ElicitOnly["model"]["method"]>, "declare asks: [sampling] on this handler in mcp.yaml">>();
// ctx.elicit says the same where the handler may not elicit (get_note asks nothing,
// summarize_note only sampling), and where it may but the manifest has no form (weather);
// where both are declared it has the forms (delete_note), no Undeclared type.
type ElicitIn<Handler extends (...args: never[]) => unknown> = Parameters<Handler>[1] extends {
  readonly elicit: infer E;
}
  ? E
  : never;
holds<
  Equal<FixOf<ElicitIn<NotesHandlers["tools"]["getNote"]>>, "declare asks: [elicitation] on this handler in mcp.yaml">
>();
holds<
  Equal<
    FixOf<ElicitIn<NotesHandlers["tools"]["summarizeNote"]>>,
    "declare asks: [elicitation] on this handler in mcp.yaml"
  >
>();
holds<
  Equal<FixOf<ToolContext<Asks<"elicitation/create">>["elicit"]>, "declare the form under elicitations: in mcp.yaml">
>();
holds<Equal<FixOf<ElicitIn<NotesHandlers["tools"]["deleteNote"]>>, never>>();
holds<Equal<keyof ElicitIn<NotesHandlers["tools"]["deleteNote"]>, "confirmDelete">>();

export const asksNamed: WeatherHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    getForecast: async (args, ctx) => {
      await ctx.input({
        name: {
          // @ts-expect-error Undeclared<"declare asks: [elicitation] on this handler in mcp.yaml">
          method: "elicitation/create",
          params: { message: "Name?", requestedSchema: { type: "object", properties: {} } },
        },
      });
      // @ts-expect-error Undeclared<"declare asks: [roots] on this handler in mcp.yaml">
      await ctx.request("roots/list");
      return { structuredContent: { city: args.city, units: "metric", days: [] } };
    },
  },
};
export const asksOther: NotesHandlers["tools"]["deleteNote"] = async (_args, ctx) => {
  const answered = await ctx.input({
    ok: {
      method: "elicitation/create",
      params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } },
    },
  });
  const action: "accept" | "decline" | "cancel" = answered.ok.action;
  // @ts-expect-error Undeclared<"declare asks: [sampling] on this handler in mcp.yaml">
  await ctx.input({ model: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } });
  return action;
};

// The weather manifest declares no listChanged and nothing `subscribe: true`.
type Weather = McpServer<WeatherHandlers, WeatherNames>;
holds<
  Equal<
    FixOf<Parameters<Weather["notifyResourceUpdated"]>[0]>,
    "declare subscribe: true on a resource or resource template in mcp.yaml"
  >
>();
export function announce(weather: Weather, notes: McpServer<unknown, NotesNames>): void {
  holds<
    Equal<
      FixOf<Parameters<typeof weather.notifyListChanged<"prompts">>[0]>,
      "declare listChanged: [prompts] on the server in mcp.yaml"
    >
  >();
  holds<
    Equal<
      FixOf<Parameters<typeof weather.setEnabled<"resourceTemplates">>[0]>,
      "declare listChanged: [resources] on the server in mcp.yaml"
    >
  >();
  holds<Equal<FixOf<Parameters<typeof notes.notifyListChanged<"tools">>[0]>, never>>();
  // @ts-expect-error Undeclared<"declare listChanged: [tools] on the server in mcp.yaml">
  weather.notifyListChanged("tools");
  // @ts-expect-error Undeclared<"declare listChanged: [tools] on the server in mcp.yaml">
  weather.setEnabled("tools", "get_forecast", false);
  // @ts-expect-error Undeclared<"declare subscribe: true on a resource or resource template in mcp.yaml">
  weather.notifyResourceUpdated("config://app");
  void weather.isEnabled("tools", "get_forecast");
  // The everything manifest declares `listChanged: [tools]` and subscribable resources.
  notes.notifyListChanged("tools");
  notes.setEnabled("tools", "get_note", true);
  notes.notifyResourceUpdated("notes://index");
  // @ts-expect-error setEnabled names a tool of the manifest
  notes.setEnabled("tools", "no_such_tool", true);
}
