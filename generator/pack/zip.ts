// A minimal zip writer for .mcpb bundles: deterministic (entries sorted by name, every
// timestamp 1980-01-01 00:00, fixed permissions), each entry deflated unless storing is
// smaller. Enough for a bundle of a few files; no zip64, so each file and the whole archive
// stay under 4 GiB.
import { crc32, deflateRawSync } from "node:zlib";

/** Files by their path in the archive (forward slashes, no leading slash). */
export type ZipEntries = ReadonlyMap<string, Uint8Array>;

const dosTime = 0;
/** 1980-01-01: ((1980 - 1980) << 9) | (1 << 5) | 1. */
const dosDate = 0x21;
/** Bit 11: names are UTF-8. */
const utf8Flag = 0x0800;
/** Made by Unix (3) with zip 2.0, so extractors apply the permission bits below. */
const madeBy = (3 << 8) | 20;
/** A regular file, rw-r--r--. */
const fileAttributes = (0o100644 << 16) >>> 0;
const maxSize = 0xffffffff;

export function zip(entries: ZipEntries): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  if (entries.size > 0xffff) throw new Error("zip: more than 65535 files need zip64");
  for (const name of [...entries.keys()].sort()) {
    if (name === "" || name.startsWith("/") || name.split("/").includes(".."))
      throw new Error(`zip: ${JSON.stringify(name)} is not a relative path`);
    const data = entries.get(name)!;
    const deflated = deflateRawSync(data, { level: 9 });
    const method = deflated.length < data.length ? 8 : 0;
    const body = method === 8 ? deflated : data;
    const nameBytes = Buffer.from(name, "utf8");
    if (data.length > maxSize || body.length > maxSize)
      throw new Error(`zip: ${name} is too large for a zip without zip64`);
    const crc = crc32(data);

    // The fields local and central headers share, from "version needed" to the name's length.
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at);
      header.writeUInt16LE(utf8Flag, at + 2);
      header.writeUInt16LE(method, at + 4);
      header.writeUInt16LE(dosTime, at + 6);
      header.writeUInt16LE(dosDate, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(body.length, at + 14);
      header.writeUInt32LE(data.length, at + 18);
      header.writeUInt16LE(nameBytes.length, at + 22);
      return header;
    };
    // Local header: signature, the common fields, no extra field.
    const local = common(Buffer.alloc(30), 4);
    local.writeUInt32LE(0x04034b50, 0);
    locals.push(local, nameBytes, Buffer.from(body.buffer, body.byteOffset, body.byteLength));

    // Central header: signature, made by, the common fields; extra, comment, disk and internal attributes 0.
    const central = common(Buffer.alloc(46), 6);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(madeBy, 4);
    central.writeUInt32LE(fileAttributes, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);

    offset += local.length + nameBytes.length + body.length;
    if (offset > maxSize) throw new Error("zip: the archive is too large for a zip without zip64");
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.size, 8);
  end.writeUInt16LE(entries.size, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
