// `prompts:` of the manifest: arguments, and for declarative prompts the Handlebars
// messages parsed into the tree the generated renderer concatenates.
import { quote } from "../diagnostics.js";
import { childPointer } from "../load/source.js";
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
      // Parsed by the validate pass, which reported the templates it could not parse.
      const parsedMessages: PromptMessageModel[] = [];
      decl.messages.forEach((message, i) => {
        const parts = context.settings.analysis.promptTemplates.get(
          childPointer(childPointer(childPointer(pointer, "messages"), i), "text"),
        );
        if (parts) parsedMessages.push({ role: message.role, parts });
        else ok = false;
      });
      messages = parsedMessages;
    }
    if (!declared || !ok) continue;
    prompts.push({ ...declared, arguments: args, ...optional("messages", messages) });
  }
  return prompts;
}
