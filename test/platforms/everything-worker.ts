// The everything example (the notes workspace) as a fetch module, bundled like worker.ts
// and started on workerd without nodejs_compat by run.ts: examples must stay
// platform-neutral, so this module must load there. Wired as examples/everything/src/main.ts
// wires it.
import { createWebHandler } from "@mcp-gen/runtime";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { createNotesServer } from "../../examples/everything/src/mcp/index.js";

const server = createNotesServer(
  createHandlers({
    changed: (uri) => server.notifyResourceUpdated(uri),
    emptied: (empty) => {
      for (const tool of ["get_note", "note_media", "delete_note", "summarize_note"] as const)
        server.setEnabled("tools", tool, !empty);
    },
  }),
);

export default { fetch: createWebHandler(server) };
