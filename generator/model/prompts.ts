// `prompts:` of the manifest: arguments, and for declarative prompts the Handlebars
// messages parsed into the tree the generated renderer concatenates.
import { quote } from "../diagnostics.js";
import { childPointer } from "../load/source.js";
import { parsePromptTemplate } from "../validate/prompt-template.js";
import { optional, type Declarations } from "./declarations.js";
import type { PromptArgumentModel, PromptMessageModel, PromptModel } from "./types.js";

export function buildPrompts(context: Declarations): PromptModel[] {
  const { diagnostics, positions } = context;
  const prompts: PromptModel[] = [];
  for (const { key: name, decl, pointer, declared } of context.declarations("prompt")) {
    const args = Object.entries(decl.arguments ?? {}).map(([argName, argDecl]): PromptArgumentModel => ({
      name: argName,
      ...optional("title", argDecl?.title),
      ...optional("description", argDecl?.description),
      required: argDecl?.required === true,
      complete: argDecl?.complete === true,
    }));
    let ok = true;
    let messages: PromptMessageModel[] | undefined;
    if (decl.messages !== undefined && decl.asks !== undefined) {
      diagnostics.push({
        location: positions.key(childPointer(pointer, "asks")),
        message: `prompt ${quote(name)} has declarative \`messages\`, so no handler runs to ask the client anything; remove \`asks\` or write a handler instead of \`messages\``,
      });
      ok = false;
    }
    if (decl.messages !== undefined) {
      const parsedMessages: PromptMessageModel[] = [];
      const declaredArgs = new Set(args.map((a) => a.name));
      decl.messages.forEach((message, i) => {
        const textPointer = childPointer(childPointer(childPointer(pointer, "messages"), i), "text");
        const parsed = parsePromptTemplate(message.text, declaredArgs);
        for (const problem of parsed.problems) {
          diagnostics.push({ location: positions.within(textPointer, problem.snippet, problem.occurrence), message: problem.message });
          ok = false;
        }
        if (parsed.parts) parsedMessages.push({ role: message.role, parts: parsed.parts });
      });
      messages = parsedMessages;
    }
    if (!declared || !ok) continue;
    prompts.push({ ...declared, arguments: args, ...optional("messages", messages) });
  }
  return prompts;
}
