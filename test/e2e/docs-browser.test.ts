// The catalog page of `mcp-gen docs` in a real browser: headless Chromium (driven by
// playwright-core; the system's or the bundled one, test/support/chromium.ts) opens the
// everything example's page, served from its own origin (http://docs.test:<port>, mapped to
// 127.0.0.1 inside Chromium, so not a loopback name the server allows by default), and calls
// the example's server on another port through the page's "try it" forms: CORS preflight,
// the 2026-07-28 single POST, and (on a copy of the page that lists only older revisions)
// initialize + Mcp-Session-Id; the server's elicitation and sampling requests are answered
// in the page (2026-07-28: input_required and a retried call; legacy: on the call's event
// stream). MCP_GEN_UPDATE_SCREENSHOT=1 refreshes docs/catalog-everything.png.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { launchChromium } from "../support/chromium.js";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const manifest = join(repoRoot, "examples", "everything", "mcp.yaml");
const screenshot = join(repoRoot, "docs", "catalog-everything.png");

let site: string;
let pages: Server;
let pageOrigin: string;
let notes: HttpServerProcess;
let browser: Browser;
/** The generated page. */
let html: string;
/** The page of the example's manifest with argument names that are also properties of a form element. */
let hostileHtml: string;

beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), "mcp-gen-docs-"));
  // The page server comes first: its origin is what the MCP server must allow.
  pages = createServer((request, response) => {
    // /legacy/: the same page believing the server speaks only the revisions before 2026-07-28.
    const page =
      request.url === "/legacy/"
        ? html.replace('"2026-07-28",', "")
        : request.url === "/"
          ? html
          : request.url === "/hostile/"
            ? hostileHtml
            : undefined;
    if (page === undefined) response.writeHead(404).end();
    else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://docs.test:${(pages.address() as AddressInfo).port}`;
  notes = await startHttpServer(
    join(repoRoot, "examples", "everything", "src", "main.ts"),
    "--http",
    "--port",
    "0",
    "--allow-origin",
    pageOrigin,
  );
  execFileSync(
    process.execPath,
    [join(repoRoot, "dist", "generator", "cli.js"), "docs", manifest, "-o", site, "--server-url", notes.url, "-q"],
    { cwd: repoRoot },
  );
  html = readFileSync(join(site, "index.html"), "utf8");
  const hostile = join(site, "hostile");
  cpSync(dirname(manifest), hostile, {
    recursive: true,
    filter: (path) => !path.includes(`${join("everything", "src")}`),
  });
  const hostileManifest = readFileSync(join(hostile, "mcp.yaml"), "utf8").replace(
    "        id: { type: string, minLength: 1 }\n",
    "$&        addEventListener: { type: string }\n        __proto__: { type: string }\n",
  );
  writeFileSync(join(hostile, "mcp.yaml"), hostileManifest);
  execFileSync(
    process.execPath,
    [join(repoRoot, "dist", "generator", "cli.js"), "docs", "mcp.yaml", "--server-url", notes.url, "-q"],
    { cwd: hostile },
  );
  hostileHtml = readFileSync(join(hostile, "site", "index.html"), "utf8");
  browser = await launchChromium(["--host-resolver-rules=MAP *.test 127.0.0.1"]);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)));
  await stopAllChildren();
  if (site) rmSync(site, { recursive: true, force: true });
});

/** Fills a tool's form with `fields` and submits it; returns the form. */
async function submit(page: Page, tool: string, fields: Record<string, string>): Promise<Locator> {
  const form = page.locator(`article[data-tool="${tool}"] form.try-it`);
  for (const [name, value] of Object.entries(fields)) await form.locator(`[data-name="${name}"]`).fill(value);
  await form.locator('button[type="submit"]').click();
  return form;
}

/** The text of a form's result panel once the call has finished. */
async function resultOf(form: Locator): Promise<string> {
  const result = form.locator(".result");
  await expect.poll(() => result.innerText(), { timeout: 20_000 }).not.toBe("Calling…");
  return result.innerText();
}

const callFromForm = async (page: Page, tool: string, fields: Record<string, string>): Promise<string> =>
  resultOf(await submit(page, tool, fields));

/** Submits a tool's form and waits for the server's question (elicitation, sampling) in it. */
async function asked(
  page: Page,
  tool: string,
  fields: Record<string, string>,
): Promise<{ form: Locator; ask: Locator }> {
  const form = await submit(page, tool, fields);
  const ask = form.locator("fieldset.ask");
  await ask.waitFor({ timeout: 20_000 });
  return { form, ask };
}

/** The inputResponses of the tools/call POSTs among `bodies`, in order. */
const inputResponses = (bodies: readonly string[]): unknown[] =>
  bodies.flatMap((body) => {
    const message = JSON.parse(body) as { method?: string; params?: { inputResponses?: Record<string, unknown> } };
    return message.method === "tools/call" && message.params?.inputResponses
      ? Object.values(message.params.inputResponses)
      : [];
  });

/** The structuredContent a result panel shows (pretty-printed JSON after its label). */
const structured = (text: string): unknown =>
  JSON.parse(/structuredContent:\n(\{[\s\S]*?\n\})/.exec(text)?.[1] ?? "null");

describe("the everything example's catalog page in Chromium", () => {
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
    page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    // Nothing outside the page and the MCP server may be requested (the page is self-contained).
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.origin !== pageOrigin && url.href !== notes.url && url.protocol !== "data:")
        consoleErrors.push(`unexpected request ${request.url()}`);
    });
    await page.goto(`${pageOrigin}/`);
  });

  it("lists every tool, resource, template and prompt of the manifest, in manifest order", async () => {
    const declared = parse(readFileSync(manifest, "utf8")) as Record<string, Record<string, unknown>>;
    expect(
      await page.locator("article.tool").evaluateAll((tools) => tools.map((t) => t.getAttribute("data-tool"))),
    ).toEqual(Object.keys(declared.tools!));
    expect(await page.locator("nav.toc li").count()).toBe(
      ["tools", "resources", "resourceTemplates", "prompts"].reduce(
        (n, kind) => n + Object.keys(declared[kind]!).length,
        0,
      ),
    );
    await expect.poll(() => page.title()).toBe("Notes workspace · MCP catalog");
    // The output schema comes from a $ref'd file, resolved as `generate` resolves it.
    const output = page.locator('article[data-tool="add_note"] table.schema').nth(1);
    expect(await output.locator("tbody tr td:first-child").allInnerTexts()).toEqual([
      "id",
      "title",
      "tags",
      "words",
      "createdAt",
    ]);
  });

  it("calls add_note over Streamable HTTP (2026-07-28) from its form and shows the structured result", async () => {
    const text = await callFromForm(page, "add_note", {
      title: "Browser note",
      body: "Written from the catalog page",
      tags: '["docs"]',
    });
    expect(structured(text)).toEqual({
      id: "browser-note",
      title: "Browser note",
      tags: ["docs"],
      words: 5,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("mirrors x-mcp-header arguments (search_notes' tag) so that the server accepts the call", async () => {
    const text = await callFromForm(page, "search_notes", { query: "catalog", tag: "docs" });
    expect(text).not.toMatch(/error/i);
    expect(text).toContain("browser-note");
  });

  it("shows a tool error for invalid arguments", async () => {
    const text = await callFromForm(page, "get_note", { id: "no-such-note" });
    expect(await page.locator('article[data-tool="get_note"] .result').getAttribute("class")).toContain("error");
    expect(text.length).toBeGreaterThan(0);
  });

  it("puts an elicitation form (delete_note's confirmation) to the user: declining keeps the note, the typed answer goes back with the retried call", async () => {
    const posted: string[] = [];
    page.on("request", (request) => request.method() === "POST" && posted.push(request.postData() ?? ""));
    // A title that is markup: the question quotes it, as text.
    const title = "<img src=x onerror=alert(1)> draft";
    const { id } = structured(await callFromForm(page, "add_note", { title, body: "to be deleted" })) as { id: string };

    let { form, ask } = await asked(page, "delete_note", { id });
    expect(await ask.locator("legend").innerText()).toBe("The server asks");
    expect(await ask.locator("p").innerText()).toBe(`Delete "${title}"? This cannot be undone.`);
    expect(await ask.locator("img").count()).toBe(0);
    expect(await ask.getByLabel("Delete it").isChecked()).toBe(false); // its default
    await ask.getByRole("button", { name: "Decline" }).click();
    expect(await resultOf(form)).toBe(`text: Kept "${title}" (decline)`);

    ({ form, ask } = await asked(page, "delete_note", { id }));
    await ask.getByLabel("Delete it").check();
    await ask.getByLabel("Reason").fill("typed in the form");
    await ask.getByRole("button", { name: "Accept" }).click();
    expect(await resultOf(form)).toBe(`text: Deleted "${title}"`);
    expect(await form.locator("fieldset.ask").count()).toBe(0);
    expect(inputResponses(posted)).toEqual([
      { action: "decline" },
      { action: "accept", content: { confirm: true, reason: "typed in the form" } },
    ]);
  });

  it("puts a sampling request (summarize_note) to the user: the messages are shown and the typed reply is the model's answer", async () => {
    const { form, ask } = await asked(page, "summarize_note", { id: "launch-plan" });
    const shown = await ask.locator("p, pre").allInnerTexts();
    expect(shown[0]).toBe("system: You write terse one-line summaries.");
    expect(shown[1]).toMatch(/^user: Summarize this note in one line:\n\n# Launch plan/);
    await ask.locator('[data-name="reply"]').fill("Beta on Monday, then a week of feedback.");
    await ask.getByRole("button", { name: "Send reply" }).click();
    expect(await resultOf(form)).toBe("text: Launch plan: Beta on Monday, then a week of feedback.");
  });

  it("shows a URL-mode elicitation (connect_calendar) as a link to accept or decline", async () => {
    let { form, ask } = await asked(page, "connect_calendar", {});
    expect(await ask.locator("p").first().innerText()).toBe("Connect your calendar so that notes can link to events");
    const link = ask.getByRole("link");
    expect(await link.getAttribute("href")).toBe("https://calendar.example.com/oauth/authorize?client=notes");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    await ask.getByRole("button", { name: "Decline" }).click();
    expect(await resultOf(form)).toBe("text: Calendar not connected (decline)");
    ({ form, ask } = await asked(page, "connect_calendar", {}));
    await ask.getByRole("button", { name: "Accept" }).click();
    expect(await resultOf(form)).toBe("text: Calendar connection started: finish it in your browser");
  });

  it("logged no errors and requested nothing else", () => {
    expect(consoleErrors).toEqual([]);
  });

  it("takes the screenshot docs/catalog-everything.png shows (MCP_GEN_UPDATE_SCREENSHOT=1 rewrites it)", async () => {
    await page.evaluate("window.scrollTo(0, 0)");
    const result = await page.locator('article[data-tool="add_note"] .result').boundingBox();
    // The screenshot shows the call's result.
    expect(result!.y + result!.height).toBeLessThanOrEqual(1600);
    const taken = await page.screenshot();
    if (process.env.MCP_GEN_UPDATE_SCREENSHOT === "1") {
      mkdirSync(dirname(screenshot), { recursive: true });
      writeFileSync(screenshot, taken);
    }
    expect(existsSync(screenshot)).toBe(true);
  });
});

it("a server spoken to in a legacy session (initialize, then Mcp-Session-Id, exposed through CORS)", async () => {
  const page = await browser.newPage();
  await page.goto(`${pageOrigin}/legacy/`);
  const text = await callFromForm(page, "add_note", { title: "Legacy note", body: "One two" });
  expect(structured(text)).toMatchObject({ id: "legacy-note", title: "Legacy note", tags: [], words: 2 });
  await page.close();
});

it("in a legacy session the server's requests arrive on the call's event stream, and the page answers them there", async () => {
  const page = await browser.newPage();
  await page.goto(`${pageOrigin}/legacy/`);
  let { form, ask } = await asked(page, "summarize_note", { id: "launch-plan" });
  await ask.locator('[data-name="reply"]').fill("Typed in a legacy session.");
  await ask.getByRole("button", { name: "Send reply" }).click();
  expect(await resultOf(form)).toBe("text: Launch plan: Typed in a legacy session.");
  // Declined: the server's request gets an error, and the tool reports it.
  ({ form, ask } = await asked(page, "summarize_note", { id: "launch-plan" }));
  await ask.getByRole("button", { name: "Decline" }).click();
  expect(await resultOf(form)).toMatch(/declined/);
  ({ form, ask } = await asked(page, "delete_note", { id: "legacy-note" }));
  await ask.getByLabel("Delete it").check();
  await ask.getByRole("button", { name: "Accept" }).click();
  expect(await resultOf(form)).toBe('text: Deleted "Legacy note"');
  await page.close();
});

it("a page on an origin the server does not allow gets no answer it can read", async () => {
  const other = await browser.newPage();
  // Same page, other origin: other.test is neither a loopback name nor listed in --allow-origin.
  await other.goto(`http://other.test:${(pages.address() as AddressInfo).port}/`);
  const text = await callFromForm(other, "list_roots", {}).catch((error: unknown) => String(error));
  expect(text).toMatch(/Failed to fetch/);
  await other.close();
});

it("argument names that are form properties (addEventListener, __proto__) are sent as arguments, and server text is shown as text", async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const sent: string[] = [];
  page.on("request", (request) => request.method() === "POST" && sent.push(request.postData() ?? ""));
  await page.goto(`${pageOrigin}/hostile/`);
  const id = "<img src=x onerror=alert(1)>";
  const text = await callFromForm(page, "get_note", { id, addEventListener: "a", ["__proto__"]: "p" });
  // The server refuses the two extra arguments (additionalProperties: false), so they reached it.
  const call = JSON.parse(sent.find((body) => body.includes('"tools/call"'))!) as { params: { arguments: object } };
  expect(Object.entries(call.params.arguments)).toEqual([
    ["id", id],
    ["addEventListener", "a"],
    ["__proto__", "p"],
  ]);
  expect(text).toMatch(/addEventListener|__proto__/);
  const refused = await callFromForm(page, "get_note", { addEventListener: "", ["__proto__"]: "" });
  expect(refused).toContain(`No note ${id}`);
  expect(await page.locator("form.try-it .result img").count()).toBe(0);
  expect(errors).toEqual([]);
  await page.close();
});
