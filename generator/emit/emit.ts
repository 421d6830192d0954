// The emit phase: the model in, every generated file's final text out (path → text, in a
// fixed order). Pure: no diagnostics (every problem was reported by the phases before it)
// and no file system.
import type { ProtocolModel } from "../model/protocol.js";
import type { ServerModel } from "../model/types.js";
import { emitClient } from "./client/emit.js";
import { GeneratedFile, type Banner } from "./file.js";
import { emitIndex } from "./index/emit.js";
import { emitProtocol } from "./protocol/emit.js";
import { appsModule, emitAppHtml } from "./server/apps.js";
import { emitServer } from "./server/emit.js";
import { emitTypes } from "./types/emit.js";
import { emitValidators } from "./validators/emit.js";

export function emitFiles(
  model: ServerModel,
  protocols: readonly ProtocolModel[],
  banner: Banner,
): Map<string, string> {
  const ext = model.generate.importExtension;
  const newFile = (path: string) => new GeneratedFile(path, (module) => `./${module}${ext}`);
  const rt = model.generate.runtime;

  const protocol = newFile("protocol.gen.ts");
  emitProtocol(protocol, protocols, rt);
  const types = newFile("types.gen.ts");
  emitTypes(types, model);
  const validators = newFile("validators.gen.ts");
  emitValidators(validators, model, rt);
  const files = [protocol, types, validators];
  const internal: GeneratedFile[] = [];
  if (model.generate.server) {
    const server = newFile("server.gen.ts");
    emitServer(server, model, protocols);
    files.push(server);
    if (model.apps.length > 0) {
      const apps = newFile(`${appsModule}.ts`);
      emitAppHtml(apps, model);
      internal.push(apps);
    }
  }
  if (model.generate.client) {
    const client = newFile("client.gen.ts");
    emitClient(client, model, protocols);
    files.push(client);
  }
  const index = newFile("index.ts");
  emitIndex(index, files);
  files.push(index, ...internal); // the pages are the server's data, not part of index.ts's API
  return new Map(files.map((file) => [file.path, file.text(banner)]));
}
