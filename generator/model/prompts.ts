// `prompts:` of the manifest: arguments, and for declarative prompts the Handlebars
// messages parsed into the tree the generated renderer concatenates.
import { quote } from "../diagnostics.js";
import { childPointer } from "../load/source.js";
import { parsePromptTemplate } from "../validate/prompt-template.js";
import { optional, str, type Declarations } from "./declarations.js";
import type { JsonObject, PromptArgumentModel, PromptMessageModel, PromptModel } from "./types.js";

export function buildPrompts(context: Declarations): PromptModel[] {
  const { diagnostics, positions } = context;
  const prompts: PromptModel[] = [];
  for (const { key: name, decl, pointer, declared } of context.declarations("prompt")) {
    const argDecls = Object.entries((decl.arguments ?? {}) as Record<string, JsonObject | null>);
    const args = argDecls.map(([argName, argDecl]): PromptArgumentModel => ({
      name: argName,
      ...optional("title", str(argDecl ?? undefined, "title")),
      ...optional("description", str(argDecl ?? undefined, "description")),
      required: argDecl?.required === true,
      complete: argDecl?.complete === true,
    }));
    let ok = true;
    let messages: PromptMessageModel[] | undefined;
    if (Array.isArray(decl.messages) && Array.isArray(decl.asks)) {
      diagnostics.push({
        location: positions.key(childPointer(pointer, "asks")),
        message: `prompt ${quote(name)} has declarative \`messages\`, so no handler runs to ask the client anything; remove \`asks\` or write a handler instead of \`messages\``,
      });
      ok = false;
    }
    if (Array.isArray(decl.messages)) {
      const parsedMessages: PromptMessageModel[] = [];
      const declaredArgs = new Set(args.map((a) => a.name));
      (decl.messages as JsonObject[]).forEach((message, i) => {
        const textPointer = childPointer(childPointer(childPointer(pointer, "messages"), i), "text");
        const parsed = parsePromptTemplate(String(message.text), declaredArgs);
        for (const problem of parsed.problems) {
          diagnostics.push({ location: positions.within(textPointer, problem.snippet, problem.occurrence), message: problem.message });
          ok = false;
        }
        if (parsed.parts) parsedMessages.push({ role: message.role as "user" | "assistant", parts: parsed.parts });
      });
      messages = parsedMessages;
    }
    if (!declared || !ok) continue;
    prompts.push({ ...declared, arguments: args, ...optional("messages", messages) });
  }
  return prompts;
}
