// The notes server's behaviour. Authorization happened before any of this runs: the HTTP
// binding verified the bearer token and its scopes (notes:read for every call, notes:write
// for add_note and delete_note), and ctx.auth says whose notes these are.
import { ErrorCode, RpcError, type ToolContext } from "@mcp-gen/runtime";
import type { NotesHandlers } from "./mcp/index.js";

interface Note {
  readonly id: number;
  readonly text: string;
}

/** Notes by owner (the token's subject); in memory, as an example. */
const notesBy = new Map<string, Note[]>();
let lastId = 0;

/** The caller's notes. Over stdio there is no token: the notes belong to the local user. */
function notesOf(ctx: Pick<ToolContext, "auth">): Note[] {
  const owner = ctx.auth?.subject ?? "local";
  let notes = notesBy.get(owner);
  if (!notes) notesBy.set(owner, (notes = []));
  return notes;
}

export const handlers: NotesHandlers = {
  tools: {
    listNotes(_args, ctx) {
      const notes = notesOf(ctx);
      const lines = notes.map((n) => `${n.id}: ${n.text}`).reverse();
      return lines.length > 0 ? lines.join("\n") : "No notes yet.";
    },
    addNote({ text }, ctx) {
      const note = { id: ++lastId, text };
      notesOf(ctx).push(note);
      return `Added note ${note.id}.`;
    },
    deleteNote({ id }, ctx) {
      const notes = notesOf(ctx);
      const at = notes.findIndex((n) => n.id === id);
      if (at < 0) return { isError: true, content: [{ type: "text", text: `No note ${id}.` }] };
      notes.splice(at, 1);
      return `Deleted note ${id}.`;
    },
  },
  resourceTemplates: {
    note({ id }, ctx) {
      const note = notesOf(ctx).find((n) => String(n.id) === id);
      if (!note) throw new RpcError(ErrorCode.ResourceNotFound, `No note ${id}`, { uri: `notes://${id}` });
      return note.text;
    },
  },
};
