// Declarative prompt templates render exactly as Handlebars renders them, whitespace
// control ({{~x~}}) and standalone block lines included: each template is parsed by the
// generator, rendered the way generated code renders the tree (concatenation, a missing
// optional argument as "", #if on the argument's truthiness), and compared with the real
// handlebars package's output for the same arguments.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parsePromptTemplate, type TemplatePart } from "../../generator/validate/prompt-template.js";

const handlebars = createRequire(import.meta.url)("handlebars") as typeof import("handlebars");

/** What the generated renderer computes for `parts` (generator/emit/server/emit.ts, renderPrompt). */
function render(parts: readonly TemplatePart[], args: Readonly<Record<string, string>>): string {
  return parts
    .map((part) => {
      if (part.kind === "text") return part.text;
      if (part.kind === "arg") return args[part.name] ?? "";
      const truthy = Boolean(args[part.name]);
      return render(truthy !== part.negate ? part.then : part.otherwise, args);
    })
    .join("");
}

const templates: readonly string[] = [
  "Hello {{~name~}} !",
  "Hello   {{~ name ~}}   !",
  "a\n  {{~#if name~}}\n  yes {{name}}\n  {{~else~}}\n  no\n  {{~/if~}}\n  b",
  "{{~#if name}} x {{/if~}} after",
  "list:\n{{#if name}}\n  - {{name}}\n{{/if}}\nend\n",
  "{{#unless name}}\n  none\n{{else}}\n  some: {{name}}\n{{/unless}}\n",
  "keep {{! comment }} spaces\n  {{!-- standalone comment --}}\nnext",
  "{{~{name}~}}   \n\n tail",
  "\t{{~! trimmed comment ~}}\t x",
  "line 1\n   {{~#if name}}\nline 2\n{{/if}}   \nline 3",
];
const argumentSets: readonly Record<string, string>[] = [{ name: "Ada" }, { name: "" }, {}];

describe("prompt templates render as Handlebars does", () => {
  for (const template of templates) {
    it(JSON.stringify(template), () => {
      const parsed = parsePromptTemplate(template, new Set(["name"]));
      expect(parsed.problems).toEqual([]);
      for (const args of argumentSets) {
        const expected = handlebars.compile(template, { noEscape: true })(args);
        expect(render(parsed.parts!, args), JSON.stringify(args)).toBe(expected);
      }
    });
  }
});
