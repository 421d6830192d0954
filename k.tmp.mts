import { readFileSync, readdirSync } from "node:fs";
import { layoutCode } from "./generator/emit/layout/print.ts";
for (const f of readdirSync("/tmp/xdg/mcp-gen/formatted")) {
  const t = readFileSync(`/tmp/xdg/mcp-gen/formatted/${f}`, "utf8");
  const l = layoutCode(t);
  console.log(f, l === undefined ? "undefined" : l === t ? "EQUAL" : "DIFF");
}
