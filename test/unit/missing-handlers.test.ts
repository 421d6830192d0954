// A generated server refuses a handlers object that lacks a declared handler when it is
// created, before any transport opens, with one MissingHandlersError naming every missing
// handler as the manifest does. The compiler catches this first; these objects get past it
// through casts, as plain JavaScript or a stale build would.
import { describe, expect, it } from "vitest";
import { memoryChannel, MissingHandlersError } from "@mcp-gen/runtime";
import { handlers } from "../../examples/weather/src/handlers.js";
import {
  connectWeatherClient,
  createWeatherServer,
  type WeatherHandlers,
} from "../../examples/weather/src/mcp/index.js";

/** What createWeatherServer throws for these handlers (undefined when it accepts them). */
function refusal(candidate: unknown): MissingHandlersError | undefined {
  try {
    createWeatherServer(candidate as WeatherHandlers);
    return undefined;
  } catch (error) {
    if (error instanceof MissingHandlersError) return error;
    throw error;
  }
}

describe("createServer checks the handlers object", () => {
  it("names every missing handler by its manifest name in one error; declarative prompts need none", () => {
    const error = refusal({});
    expect(error?.missing).toEqual([
      'tool "get_forecast"',
      'tool "list_cities"',
      'resource "app_config"',
      'resource template "city_weather"',
      'prompt "plan_trip"',
      'completer of argument "city" of prompt "plan_trip"',
      'completer of variable "city" of resource template "city_weather"',
    ]);
    expect(error?.message).toBe(`weather: handlers missing for ${error?.missing.join(", ")}`);
    expect(error?.name).toBe("MissingHandlersError");
  });

  it("refuses a handler removed behind a cast, and a member that is not a function", () => {
    const { listCities: _removed, ...tools } = handlers.tools;
    // @ts-expect-error the compiler is the first line: a missing handler does not type-check
    const typed: WeatherHandlers = { ...handlers, tools };
    expect(refusal(typed)?.message).toBe('weather: handlers missing for tool "list_cities"');
    expect(refusal({ ...handlers, tools: { ...handlers.tools, getForecast: "soon" } } as any)?.missing).toEqual([
      'tool "get_forecast"',
    ]);
    const { prompts: _prompts, ...noPrompts } = handlers;
    expect(refusal({ ...noPrompts, completions: { ...handlers.completions, resourceTemplates: {} } })?.missing).toEqual(
      ['prompt "plan_trip"', 'completer of variable "city" of resource template "city_weather"'],
    );
    expect(refusal(null)?.missing.length).toBe(7);
  });

  it("accepts handlers defined as class methods and serves them", async () => {
    class Tools {
      getForecast = handlers.tools.getForecast;
      listCities(): string {
        return "from a class";
      }
    }
    expect(refusal({ ...handlers, tools: new Tools() })).toBeUndefined();
    const client = await connectWeatherClient(memoryChannel(createWeatherServer({ ...handlers, tools: new Tools() })));
    try {
      const result = await client.tools.listCities({});
      expect(result.content).toEqual([{ type: "text", text: "from a class" }]);
    } finally {
      await client.close();
    }
  });
});
