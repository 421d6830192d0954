// An interface of method signatures (the handler interface, the typed client) written as
// a unit of a file's tail: each signature laid out as prettier lays it out, and the whole
// unit left to prettier when one is too long for that layout.
import { newWriter } from "../file.js";
import { Unsupported } from "./expression.js";
import { layoutSignature, type Unit } from "./print.js";

export class InterfaceUnit {
  /** Everything but signatures is written here directly, indented by the caller. */
  readonly writer = newWriter();
  private laidOut = true;

  /** `name(params): returns;` at `level` (two spaces each). */
  signature(level: number, name: string, params: readonly string[], returns: string): void {
    try {
      this.writer.write(layoutSignature(level * 2, name, params, returns)).newLine();
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      this.laidOut = false;
      this.writer.indent(level).write(`${name}(${params.join(", ")}): ${returns};`).newLine();
    }
  }

  unit(): Unit {
    return { text: this.writer.toString(), formatted: this.laidOut };
  }
}
