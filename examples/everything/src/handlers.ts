// The notes workspace's behaviour. Everything else (routing, validation, lists, both
// protocol eras, transports) is generated or lives in the runtime.
import type { NotesHandlers, AddNoteOutput } from "./mcp/index.js";

interface Note extends AddNoteOutput {
  body: string;
}

/** A 1x1 PNG: the logo and every note's thumbnail. */
export const pngBase64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A tenth of a second of silence (8 kHz, 8-bit mono PCM WAV): every note's "dictation". */
function silentWav(): string {
  const samples = 800;
  // Web-standard bytes (no Buffer): the example runs on fetch platforms without Node.js APIs.
  const bytes = new Uint8Array(44 + samples).fill(0x80);
  const view = new DataView(bytes.buffer);
  const ascii = (text: string, at: number) => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii("RIFF", 0);
  view.setUint32(4, 36 + samples, true);
  ascii("WAVEfmt ", 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  ascii("data", 36);
  view.setUint32(40, samples, true);
  return btoa(String.fromCharCode(...bytes));
}
const wavBase64 = silentWav();

export const INDEX_URI = "notes://index";
const noteUri = (id: string) => `notes://notes/${encodeURIComponent(id)}`;
const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "note";
const words = (body: string) => body.split(/\s+/).filter(Boolean).length;
const markdown = (note: Note) =>
  `# ${note.title}\n\n${note.body}\n${note.tags.length ? `\nTags: ${note.tags.join(", ")}\n` : ""}`;

/**
 * Resolves after `ms`, or at once when `signal` aborts (the client cancelled). The abort
 * listener goes when the time is up: reindex sleeps once per note on one request's signal.
 */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const stop = () => (clearTimeout(timer), resolve());
    const timer = setTimeout(() => (signal.removeEventListener("abort", stop), resolve()), ms);
    signal.addEventListener("abort", stop, { once: true });
  });

/** The text of a sampling result, whose content is one block or (from 2025-11-25) a list. */
function sampledText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b: { type?: unknown; text?: unknown }) =>
      b.type === "text" && typeof b.text === "string" ? b.text : `[${String(b.type)}]`,
    )
    .join("\n");
}

export interface WorkspaceEvents {
  /** A resource changed: main.ts forwards this to server.notifyResourceUpdated. */
  changed(uri: string): void;
  /**
   * The workspace became empty or stopped being empty: main.ts switches the tools that
   * need a note off and on (server.setEnabled), which tells clients their tool list changed.
   */
  emptied?(empty: boolean): void;
}

/** Handlers over a fresh in-memory workspace, seeded with two notes. */
export function createHandlers(events: WorkspaceEvents): NotesHandlers {
  const notes = new Map<string, Note>();
  const add = (title: string, body: string, tags: readonly string[]): Note => {
    let id = slug(title);
    for (let n = 2; notes.has(id); n++) id = `${slug(title)}-${n}`;
    const note: Note = {
      id,
      title,
      body,
      tags: [...tags],
      words: words(body),
      createdAt: new Date(Date.UTC(2026, 0, 1 + notes.size)).toISOString(),
    };
    notes.set(id, note);
    return note;
  };
  add("Groceries", "Milk, eggs, coffee and a loaf of rye bread.", ["home"]);
  add("Launch plan", "Ship the beta on Monday, write the announcement, then collect feedback for a week.", [
    "work",
    "launch",
  ]);

  const find = (id: string) => notes.get(id);
  const unknown = (id: string) => ({
    content: [{ type: "text" as const, text: `No note ${id}; known ids: ${[...notes.keys()].join(", ") || "(none)"}` }],
    isError: true as const,
  });
  const completeId = (value: string) => [...notes.keys()].filter((id) => id.startsWith(value.toLowerCase()));

  return {
    tools: {
      addNote({ title, body, tags }, ctx) {
        const { body: _body, ...summary } = add(title, body, tags);
        if (notes.size === 1) events.emptied?.(false);
        ctx.log("info", { event: "note_added", id: summary.id });
        events.changed(INDEX_URI);
        return { structuredContent: summary };
      },
      getNote({ id }) {
        const note = find(id);
        if (!note) return unknown(id);
        return {
          content: [
            { type: "text", text: `${note.title} (${note.words} words, tags: ${note.tags.join(", ") || "none"})` },
            { type: "resource_link", uri: noteUri(id), name: id, title: note.title, mimeType: "text/markdown" },
            {
              type: "resource",
              resource: { uri: noteUri(id), mimeType: "text/markdown", text: markdown(note) },
              annotations: { audience: ["assistant"], priority: 0.8, lastModified: note.createdAt },
            },
          ],
        };
      },
      searchNotes({ query, tag }) {
        const needle = query.toLowerCase();
        const found = [...notes.values()].filter(
          (n) => (tag === undefined || n.tags.includes(tag)) && `${n.title}\n${n.body}`.toLowerCase().includes(needle),
        );
        return {
          content: found.length
            ? found.map((n) => ({
                type: "resource_link" as const,
                uri: noteUri(n.id),
                name: n.id,
                title: n.title,
                mimeType: "text/markdown",
              }))
            : [
                {
                  type: "text" as const,
                  text: `No note matches ${JSON.stringify(query)}${tag === undefined ? "" : ` with tag #${tag}`}`,
                },
              ],
        };
      },
      noteMedia({ id }) {
        if (!find(id)) return unknown(id);
        return {
          content: [
            { type: "image", data: pngBase64, mimeType: "image/png", annotations: { audience: ["user"] } },
            { type: "audio", data: wavBase64, mimeType: "audio/wav" },
          ],
        };
      },
      async reindex({ delayMs }, ctx) {
        const all = [...notes.values()];
        ctx.log("debug", `reindexing ${all.length} notes`);
        let done = 0;
        for (const note of all) {
          if (ctx.signal.aborted) break;
          await sleep(delayMs, ctx.signal);
          done++;
          ctx.progress(done, all.length, `indexed ${note.id}`);
        }
        if (ctx.signal.aborted) {
          ctx.log("warning", `reindex cancelled after ${done} of ${all.length} notes`);
          return { content: [{ type: "text", text: `Cancelled after ${done} notes` }], isError: true };
        }
        ctx.log("info", `reindexed ${done} notes`);
        return `Reindexed ${done} notes`;
      },
      async deleteNote({ id }, ctx) {
        const note = find(id);
        if (!note) return unknown(id);
        // Ask before doing anything: under 2026-07-28 this handler runs again with the answer.
        const answer = await ctx.elicit.confirmDelete(`Delete "${note.title}"? This cannot be undone.`);
        if (answer.action !== "accept" || !answer.content.confirm) return `Kept "${note.title}" (${answer.action})`;
        notes.delete(id);
        if (notes.size === 0) events.emptied?.(true);
        ctx.log("notice", { event: "note_deleted", id, reason: answer.content.reason ?? null });
        events.changed(INDEX_URI);
        events.changed(noteUri(id));
        return `Deleted "${note.title}"`;
      },
      async summarizeNote({ id }, ctx) {
        const note = find(id);
        if (!note) return unknown(id);
        const { summary } = await ctx.input({
          summary: {
            method: "sampling/createMessage",
            params: {
              messages: [
                {
                  role: "user",
                  content: { type: "text", text: `Summarize this note in one line:\n\n${markdown(note)}` },
                },
              ],
              systemPrompt: "You write terse one-line summaries.",
              maxTokens: 60,
            },
          },
        });
        return `${note.title}: ${sampledText(summary.content)}`;
      },
      async listRoots(_args, ctx) {
        const { roots } = await ctx.input({ roots: { method: "roots/list", params: {} } });
        if (roots.roots.length === 0) return "The client shares no folders";
        return roots.roots.map((r) => (r.name ? `${r.name}: ${r.uri}` : r.uri)).join("\n");
      },
      async connectCalendar(_args, ctx) {
        // URL mode (2025-11-25 and later): the user completes the flow in a browser, out of band,
        // so credentials never pass through the client. Clients must declare elicitation.url.
        const { consent } = await ctx.input({
          consent: {
            method: "elicitation/create",
            params: {
              mode: "url",
              message: "Connect your calendar so that notes can link to events",
              url: "https://calendar.example.com/oauth/authorize?client=notes",
              elicitationId: "connect-calendar",
            },
          },
        });
        return consent.action === "accept"
          ? "Calendar connection started: finish it in your browser"
          : `Calendar not connected (${consent.action})`;
      },
    },
    resources: {
      index() {
        return [...notes.values()]
          .map((n) => `- [${n.title}](${noteUri(n.id)}) ${n.tags.map((t) => `#${t}`).join(" ")}`.trimEnd())
          .join("\n");
      },
      logo() {
        return Uint8Array.from(atob(pngBase64), (c) => c.charCodeAt(0));
      },
    },
    resourceTemplates: {
      note({ id }) {
        const note = find(id);
        if (!note) return `# Not found\n\nNo note ${id}.`;
        return markdown(note);
      },
    },
    prompts: {
      reviewNote({ id, focus }) {
        const note = find(id);
        return [
          {
            role: "user",
            content: note
              ? { type: "resource", resource: { uri: noteUri(id), mimeType: "text/markdown", text: markdown(note) } }
              : { type: "text", text: `(There is no note ${id}.)` },
          },
          { role: "user", content: { type: "image", data: pngBase64, mimeType: "image/png" } },
          {
            role: "user",
            content: {
              type: "text",
              text: `Review the note above${focus ? `, paying attention to ${focus}` : ""}. The workspace logo is attached for context.`,
            },
          },
        ];
      },
    },
    completions: {
      prompts: { reviewNote: { id: completeId } },
      resourceTemplates: { note: { id: completeId } },
    },
  };
}
