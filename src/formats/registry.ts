/**
 * The format registry: one entry per file format scry reads, each with the module's own magic check (`is`) and
 * opener (`open`). The CLI, the workbench server and the VFS decide what a file is here, and nowhere else: no
 * second copy of a magic check.
 *
 * A Lua chunk of any version counts as HavokScript, so that opening one of Lua 5.2 says "unsupported Lua version
 * 0x52" instead of "unknown file". Detection is by content first (the first `headSize` bytes, with the version checks of each module's `is`), then
 * by file name for formats without a magic (the archive path index) or for files whose magic is damaged (so the
 * user gets that format's typed error rather than "unknown file").
 */
import { isArchivePathIndex, parseArchivePathIndex, APL_FILE_NAME, type ArchivePathIndex } from './apl/apl.ts';
import { isArch06, parseArch06Index, type Arch06Index } from './arch06/arch06.ts';
import { isBndl, parseBndl, type Bndl } from './bndl/bndl.ts';
import { isEmbb, parseEmbbHypothesis, type EmbbReading } from './embb/embb.ts';
import { isGadb, parseGadb } from './gadb/parse.ts';
import type { Gadb } from './gadb/types.ts';
import { hasLuaSignature } from './hks/chunk.ts';
import { openHksFile, type HksFile } from './hks/file.ts';
import { isScri } from './scri/scri.ts';
import { isSd2, parseSd2, type Sd2File } from './sd2/sd2.ts';
import { isStrdb, parseStrdb, type Strdb } from './strdb/strdb.ts';

/** One file format: what it is called, how to recognise it and how to open it. */
export interface FormatEntry<Id extends string = string, Model = unknown> {
  /** Stable id (`gadb`, `sd2`, …): the CLI's command group, the workbench's file kind. */
  readonly id: Id;
  /** What a user calls it. */
  readonly title: string;
  /** File name endings (lower case, with the dot, or a whole name) that suggest the format. */
  readonly extensions: readonly string[];
  /** How many leading bytes `is` needs to decide (`Infinity`: the whole file). */
  readonly headSize: number;
  /** True when the bytes are this format by content (magic and version). */
  is(head: Uint8Array): boolean;
  /** Parses the whole file into the module's model (throws the module's typed errors). */
  open(bytes: Uint8Array): Model;
}

function entry<Id extends string, Model>(e: FormatEntry<Id, Model>): FormatEntry<Id, Model> {
  return e;
}

/** Every format, in detection order (the first whose `is` accepts the head wins). */
export const FORMATS = [
  entry({ id: 'gadb', title: 'GameDB database (GADB v17)', extensions: ['.gamedb', '.fxp', '.bvr', '.gadb'], headSize: 16, is: isGadb, open: (b): Gadb => parseGadb(b) }),
  entry({ id: 'sd2', title: 'Firefall static database (.sd2)', extensions: ['.sd2'], headSize: 4, is: isSd2, open: (b): Sd2File => parseSd2(b) }),
  entry({ id: 'hks', title: 'HavokScript chunk or SCRI container', extensions: ['.luac', '.hks', '.scri', '.scripts'], headSize: 5, is: (h) => hasLuaSignature(h) || isScri(h), open: (b): HksFile => openHksFile(b, { allowTruncated: true }) }),
  entry({ id: 'arch06', title: 'LithTech archive (.arch06)', extensions: ['.arch06'], headSize: 8, is: isArch06, open: (b): Arch06Index => parseArch06Index(b) }),
  entry({ id: 'bndl', title: 'resource bundle manifest (.bndl)', extensions: ['.bndl'], headSize: 8, is: isBndl, open: (b): Bndl => parseBndl(b) }),
  entry({ id: 'embb', title: 'embedded bundle contents (.embb)', extensions: ['.embb'], headSize: 8, is: isEmbb, open: (b): EmbbReading => parseEmbbHypothesis(b) }),
  entry({ id: 'strdb', title: 'string database (.strdb)', extensions: ['.strdb'], headSize: 8, is: isStrdb, open: (b): Strdb => parseStrdb(b) }),
  entry({ id: 'apl', title: 'archive path index (archivepatchloosefiles)', extensions: [APL_FILE_NAME, '.archivepatchloosefiles.txt', '.archivepatchloosefiles'], headSize: Infinity, is: isArchivePathIndex, open: (b): ArchivePathIndex => parseArchivePathIndex(b) }),
] as const;

/** The id of a registered format. */
export type FormatId = (typeof FORMATS)[number]['id'];

/** The model `open` returns for a format id. */
export type FormatModel<Id extends FormatId> = ReturnType<Extract<(typeof FORMATS)[number], { id: Id }>['open']>;

/** The registered format with this id. */
export function formatById<Id extends FormatId>(id: Id): Extract<(typeof FORMATS)[number], { id: Id }> {
  return FORMATS.find((f) => f.id === id) as Extract<(typeof FORMATS)[number], { id: Id }>;
}

/** Leading bytes to read so that `detectFormat` can decide for every format with a magic. */
export const FORMAT_HEAD_SIZE = 16;

/** The format of a file by content (`head`: its first bytes, or all of it), or undefined. */
export function formatOfBytes(head: Uint8Array): (typeof FORMATS)[number] | undefined {
  return FORMATS.find((f) => f.is(head));
}

/** The format a file name suggests (by its ending), or undefined. */
export function formatOfName(name: string): (typeof FORMATS)[number] | undefined {
  const lower = name.toLowerCase();
  return FORMATS.find((f) => f.extensions.some((e) => lower.endsWith(e)));
}

/**
 * What a file is: by content first, else by its name. `head` holds at least `FORMAT_HEAD_SIZE` bytes of the file
 * (all of it to recognise an archive path index by content).
 */
export function detectFormat(head: Uint8Array, name = ''): { format: (typeof FORMATS)[number]; by: 'content' | 'name' } | undefined {
  const byContent = formatOfBytes(head);
  if (byContent) return { format: byContent, by: 'content' };
  const byName = formatOfName(name);
  return byName ? { format: byName, by: 'name' } : undefined;
}
