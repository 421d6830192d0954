// The weather server's behaviour: everything else (routing, validation, lists, both
// protocol eras, transports) is generated or lives in the runtime.
import type { GetForecastOutput, WeatherHandlers } from "./mcp/index.js";

type Conditions = GetForecastOutput["days"][number]["conditions"];

const cities: Record<string, { high: number; low: number; conditions: readonly Conditions[] }> = {
  paris: { high: 18, low: 9, conditions: ["cloudy", "rain", "sunny"] },
  oslo: { high: 6, low: -2, conditions: ["snow", "cloudy"] },
  lisbon: { high: 24, low: 15, conditions: ["sunny", "sunny", "cloudy"] },
};

const toFahrenheit = (celsius: number) => Math.round((celsius * 9) / 5 + 32);

/** A deterministic forecast, so the example behaves the same for everyone. */
function forecast(city: string, days: number, units: "metric" | "imperial"): GetForecastOutput | undefined {
  const known = cities[city.toLowerCase()];
  if (!known) return undefined;
  const start = Date.UTC(2026, 0, 1);
  const scale = units === "imperial" ? toFahrenheit : (c: number) => c;
  return {
    city,
    units,
    days: Array.from({ length: days }, (_, i) => ({
      date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
      high: scale(known.high - (i % 3)),
      low: scale(known.low + (i % 2)),
      conditions: known.conditions[i % known.conditions.length]!,
    })),
  };
}

/** Known cities starting with what the user typed (completion/complete). */
const completeCity = (value: string) => Object.keys(cities).filter((city) => city.startsWith(value.toLowerCase()));

export const handlers: WeatherHandlers = {
  tools: {
    getForecast({ city, days, units }, ctx) {
      const result = forecast(city, days, units);
      // A tool error (isError) tells the model what went wrong so it can try again.
      if (!result)
        return {
          content: [{ type: "text", text: `Unknown city ${city}; try one of: ${Object.keys(cities).join(", ")}` }],
          isError: true,
        };
      ctx.progress(1, 1, `forecast for ${city}`);
      return { structuredContent: result };
    },
    listCities() {
      return Object.keys(cities).join("\n");
    },
  },
  resources: {
    appConfig() {
      return JSON.stringify({ defaultUnits: "metric", maxDays: 7 });
    },
  },
  resourceTemplates: {
    cityWeather({ city }) {
      const today = forecast(city, 1, "metric")?.days[0];
      if (!today) return JSON.stringify({ city, known: false });
      return JSON.stringify({ city, temperature: today.high, conditions: today.conditions });
    },
  },
  prompts: {
    planTrip({ city }) {
      return [
        {
          role: "user",
          content: {
            type: "text",
            text: `I am travelling to ${city}. Check the forecast with get_forecast, then suggest a packing list.`,
          },
        },
      ];
    },
  },
  completions: {
    prompts: { planTrip: { city: completeCity } },
    resourceTemplates: { cityWeather: { city: completeCity } },
  },
};
