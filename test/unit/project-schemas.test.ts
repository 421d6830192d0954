// A manifest's `protocolSchemas:` folder (schemas pinned in the project), through the built
// CLI and offline: which source wins at each level of the precedence, the message when a
// pinned schema is missing, `schema fetch --from` filling the folder and refusing a tampered
// file, generate/--check/--watch/diff with no flag, no MCP_GEN_SCHEMA_DIR and an empty cache,
// the run memo noticing a changed pinned file, and `init` pinning what the machine has.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCli, runCliAsync, tempProject } from "../support/generate.js";
import { cliPath, schemaDir } from "../support/paths.js";

const revision = "2025-06-18";
const original = readFileSync(join(schemaDir, revision, "schema.json"));
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** One revision keeps runs short; `protocolSchemas` on line 4. */
const manifest = (schemas: string | null = "./mcp-schema", protocol = revision) =>
  [
    "mcpgen: 1",
    'server: { name: demo, version: "1.0.0" }',
    `protocol: ${protocol}`,
    ...(schemas === null ? [] : [`protocolSchemas: ${schemas}`]),
    "tools:",
    "  ping: {}",
    "",
  ].join("\n");

/** No flag, no MCP_GEN_SCHEMA_DIR, and a cache folder of its own (empty unless a test fills it). */
function offline(): { env: Record<string, string>; cache: string } {
  const home = tempProject();
  return { env: { MCP_GEN_SCHEMA_DIR: "", XDG_CACHE_HOME: home }, cache: join(home, "mcp-gen", "schemas") };
}

/** A valid schema.json for `revision` whose bytes (and so sha256) differ by `spaces` trailing spaces; returns its sha256. */
function place(dir: string, spaces: number, rev = revision): string {
  const bytes = Buffer.concat([original, Buffer.from(" ".repeat(spaces))]);
  mkdirSync(join(dir, rev), { recursive: true });
  writeFileSync(join(dir, rev, "schema.json"), bytes);
  return sha256(bytes);
}

/** A project whose mcp-schema/ holds the published files of `revisions`. */
function pinnedProject(revisions: readonly string[] = [revision]): string {
  const dir = tempProject({ "mcp.yaml": manifest("./mcp-schema", `[${revisions.join(", ")}]`) });
  for (const rev of revisions) cpSync(join(schemaDir, rev, "schema.json"), join(dir, "mcp-schema", rev, "schema.json"));
  return dir;
}

/** The sha256 the generated banner records for the revision's schema. */
const bannerSha = (project: string) =>
  /\/\/ Protocol 2025-06-18: schema\.json sha256 ([0-9a-f]{64})/.exec(
    readFileSync(join(project, "mcp", "protocol.gen.ts"), "utf8"),
  )?.[1];

const missingMessage = (at: string, fetch: string) =>
  `mcp-gen: ${at}: protocol schema for ${revision} not found in the project's protocolSchemas folder ./mcp-schema (no ${revision}/schema.json there); ` +
  `run \`${fetch}\` to fill it, or \`${fetch} --from <dir>\` offline from a folder holding <revision>/schema.json\n`;

describe("where protocol schemas come from", () => {
  it("--schema / --schema-dir, then MCP_GEN_SCHEMA_DIR, then protocolSchemas, then the cache: each level wins over the next", async () => {
    const project = tempProject({ "mcp.yaml": manifest() });
    const { env, cache } = offline();
    const flagFile = place(join(project, "flag-file"), 1);
    const flagDir = place(join(project, "flag-dir"), 2);
    const envDir = place(join(project, "env-dir"), 3);
    const pinned = place(join(project, "mcp-schema"), 4);
    const cached = place(cache, 5);
    const withEnv = { ...env, MCP_GEN_SCHEMA_DIR: join(project, "env-dir") };
    const generated = async (args: readonly string[], runEnv: Record<string, string>) => {
      const run = await runCliAsync(["mcp.yaml", "-q", ...args], project, runEnv);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      return bannerSha(project);
    };
    const listed = (runEnv: Record<string, string>) => {
      const run = runCli(["schema", "list", "--json"], project, runEnv);
      expect(run.status).toBe(0);
      return (JSON.parse(run.stdout) as { revision: string; from: string | null }[]).find(
        (r) => r.revision === revision,
      )?.from;
    };

    expect(await generated(["--schema", join(project, "flag-file", revision, "schema.json")], withEnv)).toBe(flagFile);
    expect(await generated(["--schema-dir", "flag-dir"], withEnv)).toBe(flagDir);
    expect(await generated([], withEnv)).toBe(envDir);
    expect(listed(withEnv)).toBe("MCP_GEN_SCHEMA_DIR");
    expect(await generated([], env)).toBe(pinned);
    expect(listed(env)).toBe("protocolSchemas in mcp.yaml");
    writeFileSync(join(project, "mcp.yaml"), manifest(null));
    expect(await generated([], env)).toBe(cached);
    expect(listed(env)).toBe("the schema cache");
  });

  it("a pinned project never falls back to the cache: a missing file names the folder and the command that fills it", async () => {
    const project = tempProject({ "mcp.yaml": manifest(), "api/mcp.yaml": manifest() });
    const { env, cache } = offline();
    place(cache, 0);
    const run = await runCliAsync(["mcp.yaml"], project, env);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(missingMessage("mcp.yaml:4:18", `npx mcp-gen schema fetch ${revision}`));
    expect(existsSync(join(project, "mcp"))).toBe(false);
    // Another manifest than ./mcp.yaml: the command names it.
    const other = await runCliAsync(["api/mcp.yaml"], project, env);
    expect(other.stderr).toBe(
      missingMessage("api/mcp.yaml:4:18", `npx mcp-gen schema fetch --manifest api/mcp.yaml ${revision}`),
    );
    // schema list says the same per revision.
    expect(runCli(["schema", "list"], project, env).stdout).toContain(
      `${revision}  legacy  draft-07  not in ./mcp-schema (protocolSchemas in mcp.yaml); run \`npx mcp-gen schema fetch ${revision}\``,
    );

    // Following the advice (offline) fixes it, for each manifest.
    expect(runCli(["schema", "fetch", revision, "--from", schemaDir], project, env).status).toBe(0);
    expect(runCli(["schema", "fetch", "--manifest", "api/mcp.yaml", "--from", schemaDir], project, env).stdout).toBe(
      `${revision}: api/mcp-schema/${revision}/schema.json (sha256 verified)\n`,
    );
    for (const file of ["mcp.yaml", "api/mcp.yaml"])
      expect(runCli([file, "-q"], project, env)).toMatchObject({ status: 0, stderr: "" });
  });
});

describe("mcp-gen schema fetch into the project", () => {
  it("--from copies the revisions the manifest targets into its protocolSchemas folder, verified, and nothing into the cache", () => {
    const revisions = [revision, "2025-03-26"];
    const project = tempProject({ "mcp.yaml": manifest("./pinned/schemas", `[${revisions.join(", ")}]`) });
    const { env, cache } = offline();
    const run = runCli(["schema", "fetch", "--from", schemaDir], project, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(revisions.map((r) => `${r}: pinned/schemas/${r}/schema.json (sha256 verified)\n`).join(""));
    expect(readdirSync(join(project, "pinned", "schemas")).sort()).toEqual([...revisions].sort());
    for (const r of revisions)
      expect(readFileSync(join(project, "pinned", "schemas", r, "schema.json"))).toEqual(
        readFileSync(join(schemaDir, r, "schema.json")),
      );
    expect(existsSync(cache)).toBe(false);
  });

  it("refuses a copy whose sha256 is not the pinned one, and writes none of the revisions", () => {
    const project = tempProject({ "mcp.yaml": manifest("./mcp-schema", `[${revision}, 2025-03-26]`) });
    const from = tempProject();
    cpSync(join(schemaDir, revision, "schema.json"), join(from, revision, "schema.json"));
    // One character more in the published 2025-03-26: still valid JSON, no longer the published file.
    const tampered = readFileSync(join(schemaDir, "2025-03-26", "schema.json"), "utf8").replace(
      '"description"',
      '"description" ',
    );
    mkdirSync(join(from, "2025-03-26"));
    writeFileSync(join(from, "2025-03-26", "schema.json"), tampered);
    const run = runCli(["schema", "fetch", "--from", from], project, offline().env);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `mcp-gen: 2025-03-26: ${join(from, "2025-03-26", "schema.json")} has sha256 ${sha256(tampered)}, not the pinned e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131 of 2025-03-26 (schema/revisions.json); ` +
        "it is not the published schema (an edited copy, or another revision's), so mcp-gen refuses it\nmcp-gen: nothing written to mcp-schema\n",
    );
    expect(existsSync(join(project, "mcp-schema"))).toBe(false);
  });

  it("says which file --from lacks; --from is for fetch only", () => {
    const project = tempProject({ "mcp.yaml": manifest() });
    const empty = tempProject();
    const run = runCli(["schema", "fetch", "--from", empty], project, offline().env);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `mcp-gen: ${revision}: ${join(empty, revision, "schema.json")} not found; --from needs a folder holding <revision>/schema.json\n`,
    );
    expect(runCli(["schema", "list", "--from", empty], project).status).toBe(2);
  });

  it("reports a protocolSchemas that leaves the project at its position and fetches nothing", () => {
    const project = tempProject({ "mcp.yaml": manifest("../elsewhere") });
    const run = runCli(["schema", "fetch", "--from", schemaDir], project, offline().env);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^mcp-gen: mcp\.yaml:4:18: protocolSchemas "\.\.\/elsewhere" leads outside the project root/,
    );
    expect(existsSync(join(project, "..", "elsewhere"))).toBe(false);
  });
});

describe("a pinned project, offline: no flag, no MCP_GEN_SCHEMA_DIR, an empty cache", () => {
  it("generates, --checks, --dry-runs, diffs and writes docs; the run memo notices a changed pinned file and a changed setting", async () => {
    const project = pinnedProject([revision, "2025-03-26"]);
    const { env, cache } = offline();
    expect(runCli(["mcp.yaml", "-q"], project, env)).toMatchObject({ status: 0, stderr: "" });
    expect(bannerSha(project)).toBe(sha256(original));
    expect(runCli(["--check"], project, env)).toMatchObject({ status: 0, stderr: "" });
    expect(runCli(["--dry-run"], project, env)).toMatchObject({ status: 0, stderr: "" });
    const diff = await runCliAsync(["diff", "2025-03-26", revision], project, env);
    expect(diff.stderr).toBe("");
    expect(diff.status).toBe(0);
    expect(diff.stdout).toContain("2025-03-26");
    expect(runCli(["docs", "-q"], project, env)).toMatchObject({ status: 0, stderr: "" });
    expect(existsSync(cache)).toBe(false);

    // A pinned file edited: --check is stale (not answered from the run memo), generate rewrites, --check is clean again.
    const edited = place(join(project, "mcp-schema"), 1);
    const stale = runCli(["--check"], project, env);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("mcp/protocol.gen.ts: stale");
    expect(runCli(["-q"], project, env).status).toBe(0);
    expect(bannerSha(project)).toBe(edited);
    expect(runCli(["--check", "-q"], project, env).status).toBe(0);

    // The setting changed to a folder without the schemas: an error, not "up to date".
    writeFileSync(
      join(project, "mcp.yaml"),
      readFileSync(join(project, "mcp.yaml"), "utf8").replace("./mcp-schema", "./other"),
    );
    const moved = runCli(["--check"], project, env);
    expect(moved.status).toBe(1);
    expect(moved.stderr).toContain("not found in the project's protocolSchemas folder ./other");
  });

  it("--watch regenerates when a pinned schema file changes", async () => {
    const project = pinnedProject();
    const child = spawn(process.execPath, [cliPath, "mcp.yaml", "--watch"], {
      cwd: project,
      env: { ...process.env, ...offline().env },
    });
    onTestFinished(() => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const until = async (ready: () => boolean) => {
      for (const deadline = Date.now() + 20_000; !ready(); await new Promise((r) => setTimeout(r, 50)))
        if (Date.now() > deadline) throw new Error(`timed out; stdout:\n${stdout}`);
    };
    await until(() => /start: wrote/.test(stdout));
    const edited = place(join(project, "mcp-schema"), 2);
    await until(() => new RegExp(`mcp-schema/${revision}/schema\\.json changed: wrote`).test(stdout));
    expect(bannerSha(project)).toBe(edited);
    child.kill("SIGTERM");
    expect(await new Promise((r) => child.on("exit", r))).toBe(0);
  });
});

describe("mcp-gen init pins the schemas it can find offline", () => {
  it("copies every revision of the new manifest from --schema-dir into ./mcp-schema; the project then generates with nothing else", () => {
    const dir = tempProject();
    const { env } = offline();
    const init = runCli(["init", ".", "--name", "pinned", "--schema-dir", schemaDir], dir, env);
    expect(init.status).toBe(0);
    expect(readFileSync(join(dir, "mcp.yaml"), "utf8")).toContain("\nprotocolSchemas: ./mcp-schema\n");
    expect(init.stdout).toContain(
      "pinned protocol schemas 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 in mcp-schema (sha256 verified)\n",
    );
    for (const rev of readdirSync(schemaDir).filter((r) => /^\d{4}-/.test(r))) {
      expect(readFileSync(join(dir, "mcp-schema", rev, "schema.json"))).toEqual(
        readFileSync(join(schemaDir, rev, "schema.json")),
      );
    }
    expect(runCli(["-q"], dir, env)).toMatchObject({ status: 0, stderr: "" });
  });

  it("takes what the cache has and names the command for the rest", () => {
    const dir = tempProject();
    const { env, cache } = offline();
    cpSync(join(schemaDir, revision, "schema.json"), join(cache, revision, "schema.json"));
    const init = runCli(["init", ".", "--name", "partial"], dir, env);
    expect(init.status).toBe(0);
    expect(init.stdout).toContain(`pinned protocol schemas ${revision} in mcp-schema (sha256 verified)\n`);
    expect(init.stdout).toContain(
      "mcp-schema has no protocol schema for 2026-07-28, 2025-11-25, 2025-03-26, 2024-11-05 yet: run `npx mcp-gen schema fetch 2026-07-28 2025-11-25 2025-03-26 2024-11-05` " +
        "(or `npx mcp-gen schema fetch 2026-07-28 2025-11-25 2025-03-26 2024-11-05 --from <dir>` with a folder holding <revision>/schema.json) before generating\n",
    );
    expect(readdirSync(join(dir, "mcp-schema"))).toEqual([revision]);
  });
});
