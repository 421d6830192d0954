// The weather example's forecast panel, an MCP App (SEP-1865): the host renders it for
// get_forecast's results, and its buttons call get_forecast again through the host.
// build.ts bundles it, with the ext-apps library, into forecast.html (one self-contained page);
// "app-with-deps" is the library with its own dependencies (MCP SDK core, zod) built in, the
// versions it was released with.
import { App } from "@modelcontextprotocol/ext-apps/app-with-deps";

interface Day {
  readonly date: string;
  readonly high: number;
  readonly low: number;
  readonly conditions: string;
}
interface Forecast {
  readonly city: string;
  readonly units: "metric" | "imperial";
  readonly days: readonly Day[];
}
interface ToolResult {
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
}

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const [title, list, status, daysLabel] = [element("title"), element("forecast"), element("status"), element("days")];
const [fewer, more, units] = [
  element<HTMLButtonElement>("fewer"),
  element<HTMLButtonElement>("more"),
  element<HTMLButtonElement>("units"),
];

let shown: Forecast | undefined;
const app = new App({ name: "weather-forecast-panel", version: "1.0.0" });

function render(result: ToolResult): void {
  const forecast = result.structuredContent as Forecast | undefined;
  if (result.isError || !forecast) {
    status.textContent = result.content?.find((c) => c.type === "text")?.text ?? "The forecast could not be read.";
    status.className = "error";
    return;
  }
  shown = forecast;
  const degree = forecast.units === "metric" ? "°C" : "°F";
  title.textContent = `Forecast · ${forecast.city}`;
  daysLabel.textContent = `${forecast.days.length} day${forecast.days.length === 1 ? "" : "s"}`;
  units.textContent = forecast.units === "metric" ? "°F" : "°C";
  list.replaceChildren(
    ...forecast.days.map((day) => {
      const item = document.createElement("li");
      const line = (className: string, text: string) =>
        Object.assign(document.createElement("div"), { className, textContent: text });
      item.append(
        line("date", day.date),
        line(`conditions ${day.conditions}`, day.conditions),
        line("temps", `${day.high}${degree} / ${day.low}${degree}`),
      );
      return item;
    }),
  );
  fewer.disabled = forecast.days.length <= 1;
  more.disabled = forecast.days.length >= 7;
  units.disabled = false;
  status.className = "";
}

/** Asks the server for another forecast through the host (tools/call from the app). */
async function refetch(change: { days?: number; units?: Forecast["units"] }): Promise<void> {
  if (!shown) return;
  const args = { city: shown.city, days: change.days ?? shown.days.length, units: change.units ?? shown.units };
  status.textContent = `Calling get_forecast(${args.days} days, ${args.units})…`;
  status.className = "";
  try {
    render(await app.callServerTool({ name: "get_forecast", arguments: args }));
    status.textContent = `Updated by get_forecast (${args.days} days, ${args.units}), called from this panel.`;
  } catch (error) {
    status.textContent = `get_forecast failed: ${error instanceof Error ? error.message : String(error)}`;
    status.className = "error";
  }
}

fewer.onclick = () => void refetch({ days: (shown?.days.length ?? 2) - 1 });
more.onclick = () => void refetch({ days: (shown?.days.length ?? 0) + 1 });
units.onclick = () => void refetch({ units: shown?.units === "metric" ? "imperial" : "metric" });

// Register handlers before connecting: the host may deliver the result right after the handshake.
app.ontoolresult = (result) => {
  render(result);
  if (shown) status.textContent = "From the model's get_forecast call.";
};
app.connect().catch((error: unknown) => {
  status.textContent = `Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`;
  status.className = "error";
});
