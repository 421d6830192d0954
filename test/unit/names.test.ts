// The naming rule of generator/model/names.ts (documented in docs/manifest.md, "Identifier rule"): examples, and a
// differential check of its one-pattern word split against the rule written as the two
// replacements it states ("getURL" → get URL, "HTTPServer" → HTTP Server).
import { describe, expect, it } from "vitest";
import { camelCase, identifierProblem, pascalCase, serverTypeBase } from "../../generator/model/names.js";

/** Rule 1 spelled out step by step: split at non-alphanumerics, then at the two kinds of case change. */
function ruleWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+/)
    .flatMap((chunk) =>
      chunk
        .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
        .split(" "),
    )
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

describe("the naming rule", () => {
  it.each([
    ["get_forecast", "getForecast", "GetForecast"],
    ["get-forecast", "getForecast", "GetForecast"],
    ["getForecast", "getForecast", "GetForecast"],
    ["weather.get", "weatherGet", "WeatherGet"],
    ["getURL", "getUrl", "GetUrl"],
    ["HTTPServer", "httpServer", "HttpServer"],
    ["HTTP2Server", "http2Server", "Http2Server"],
    ["x1ABc", "x1ABc", "X1ABc"],
    ["ABC1d", "abc1d", "Abc1d"],
    ["1A", "1A", "1A"],
    ["__proto__", "proto", "Proto"],
    ["é-ü", "", ""],
  ])("%s → %s / %s", (name, camel, pascal) => {
    expect(camelCase(name)).toBe(camel);
    expect(pascalCase(name)).toBe(pascal);
  });

  it("splits words exactly as the rule's two replacements do, on 200,000 seeded names", () => {
    const alphabet = "aAbBzZ019_- .éÉ$";
    let seed = 1;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 200_000; n++) {
      let name = "";
      for (let i = Math.floor(next() * 12); i > 0; i--) name += alphabet[Math.floor(next() * alphabet.length)];
      const words = ruleWords(name);
      const expected = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
      if (pascalCase(name) !== expected) expect({ name, pascal: pascalCase(name) }).toEqual({ name, pascal: expected });
    }
  });

  it("names the server API without a trailing server or mcp, and refuses what cannot be an identifier", () => {
    expect(serverTypeBase("docs-mcp")).toBe("Docs");
    expect(serverTypeBase("weather-server")).toBe("Weather");
    expect(serverTypeBase("mcp")).toBe("Mcp");
    expect(identifierProblem("")).toBe("contains no letters or digits");
    expect(identifierProblem("1a")).toMatch(/starts with a digit/);
    expect(identifierProblem("delete")).toMatch(/reserved word/);
    expect(identifierProblem("getForecast")).toBeUndefined();
  });
});
