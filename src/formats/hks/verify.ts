/**
 * The verifier: operand-range and DATA-ownership checks over every instruction of every function, plus the
 * chunk-level facts that rest on hypotheses. On compiler output it reports no errors or warnings; on code read
 * with its fields confused (e.g. A and B swapped, the seed's control) it reports many. Findings are `Issue`s:
 * `error` = the VM would misbehave or the loader would reject; `warning` = never seen in compiler output;
 * `info` = a fact worth knowing that rests on a hypothesis (named in `hypothesis`).
 */
import type { Issue } from '../../binary/errors.ts';
import { HKS_DEFAULT_PAD_BYTE, listHksFunctions, type HksChunk, type HksFunction } from './chunk.ts';
import { hksMatchingStructureOrders } from './structure-order.ts';
import { hksA, hksB, hksBx, hksC, hksDataWordCount, hksOpcodes, hksOp, hksRegisterSpan, hksSbx, type HksDialect, type HksOpcodeInfo, type HksOperandKind } from './opcodes.ts';

export interface HksVerifyOptions {
  dialect?: HksDialect;
  /** Stop after this many findings (default 10 000). */
  limit?: number;
}

/** Number of type ids in the standard type table (CHECKTYPE / SETSLOT type operands must be below it). */
const TYPE_COUNT = 13;

/** Checks a chunk; returns the findings (empty for clean compiler output). */
export function verifyHksChunk(chunk: HksChunk, options: HksVerifyOptions = {}): Issue[] {
  const table = hksOpcodes(options.dialect);
  const limit = options.limit ?? 10_000;
  const issues: Issue[] = [];
  const structIds = new Set((chunk.structures?.structures ?? []).map((s) => s.id));
  const hasStructs = chunk.structures !== null && chunk.structures.structures.length > 0;

  for (const { fn, path } of listHksFunctions(chunk)) {
    if (issues.length >= limit) break;
    verifyFunction(fn, path, table.byOp, issues, structIds, hasStructs, limit);
  }

  if (chunk.trailing.length > 0) issues.push({ rule: 'hks.trailing', message: `${chunk.trailing.length} byte(s) after the last section (kept verbatim; Halo Infinite stores tag tables there)`, severity: 'info', path: '/trailing' });
  if (chunk.structures && chunk.structures.structures.length > 0) {
    issues.push({ rule: 'hks.structures.layout', message: `structure section read with the ${chunk.structures.layout} layout`, severity: 'info', path: '/structures', hypothesis: 'hks.structures.layout' });
  }
  if (chunk.structures && chunk.structures.structures.length >= 2) {
    const orders = hksMatchingStructureOrders(chunk.main, chunk.structures.structures);
    const message =
      orders.length === 2
        ? 'structure section order: the ds3 and iw6 orders both give it'
        : orders.length === 1
          ? `structure section in ${orders[0]} order (${orders[0] === 'ds3' ? "hksc's ds3 build" : "standard Lua table order, like the Halo Infinite sample and hksc's iw6 build"})`
          : 'structure section order matches neither the ds3 nor the iw6 order: the compiler that wrote it orders structures some other way';
    issues.push({ rule: 'hks.structures.order', message, severity: 'info', path: '/structures', hypothesis: 'H-STRUCT-ORDER' });
  }
  return issues.slice(0, limit);
}

function verifyFunction(fn: HksFunction, path: string, byOp: readonly HksOpcodeInfo[], issues: Issue[], structIds: Set<number>, hasStructs: boolean, limit: number): void {
  const code = fn.code;
  const n = code.length;
  const maxStack = fn.maxStackSize;
  const kCount = fn.constants.length;
  const at = (pc: number): string => `/${path}/code[${pc}]`;
  const add = (pc: number, rule: string, message: string, severity: Issue['severity'] = 'error', hypothesis?: string): void => {
    if (issues.length >= limit) return;
    const issue: Issue = { rule, message: `${path} pc ${pc}: ${message}`, path: at(pc), severity };
    if (hypothesis) issue.hypothesis = hypothesis;
    issues.push(issue);
  };
  const dataOp = byOp.findIndex((o) => o.isData);
  const isData = (pc: number): boolean => pc >= 0 && pc < n && hksOp(code[pc]!) === dataOp;

  if (fn.padByte !== HKS_DEFAULT_PAD_BYTE) issues.push({ rule: 'hks.padding.byte', message: `${path}: pad byte 0x${fn.padByte.toString(16)} (every known writer uses '_')`, path: `/${path}/padByte`, severity: 'warning', hypothesis: 'hks.padding.byte' });
  if (n === 0) {
    add(0, 'hks.code.empty', 'function has no code (compilers always end with RETURN)', 'warning');
  } else if (byOp[hksOp(code[n - 1]!)]?.name !== 'RETURN') {
    add(n - 1, 'hks.code.noreturn', 'last word is not RETURN (compilers always end a function with RETURN 0 1)', 'warning');
  }

  const jumpTargets = new Set<number>();
  for (let pc = 0; pc < n; pc++) {
    const info = byOp[hksOp(code[pc]!)];
    if (info?.b === 'J') jumpTargets.add(pc + 1 + hksSbx(code[pc]!));
  }

  for (let pc = 0; pc < n; pc++) {
    if (issues.length >= limit) return;
    const w = code[pc]!;
    const info = byOp[hksOp(w)];
    if (!info) {
      add(pc, 'hks.op.unknown', `opcode ${hksOp(w)} is outside the table (${byOp.length} opcodes)`);
      continue;
    }
    if (info.isData) {
      add(pc, 'hks.data.orphan', 'DATA word not owned by a preceding instruction');
      continue;
    }
    const a = hksA(w);
    const b = hksB(w);
    const c = hksC(w);
    const bx = hksBx(w);

    // unused fields
    if (info.a === '-' && a !== 0) add(pc, 'hks.op.unused', `${info.name}: unused A is ${a}`, 'warning');
    if (info.mode === 'ABC') {
      if (info.b === '-' && b !== 0) add(pc, 'hks.op.unused', `${info.name}: unused B is ${b}`, 'warning');
      if (info.c === '-' && c !== 0) add(pc, 'hks.op.unused', `${info.name}: unused C is ${c}`, 'warning');
    }

    // operands by kind
    const check = (kind: HksOperandKind, v: number, field: string, rk9: boolean): void => {
      switch (kind) {
        case 'R':
          if (v >= maxStack) add(pc, 'hks.operand.register', `${info.name}: ${field} = R(${v}) is not below max stack ${maxStack}`);
          return;
        case 'RK':
          if (rk9 && v >= 256) {
            if (v - 256 >= kCount) add(pc, 'hks.operand.constant', `${info.name}: ${field} = K(${v - 256}) but the function has ${kCount} constant(s)`);
          } else if (v >= maxStack) add(pc, 'hks.operand.register', `${info.name}: ${field} = R(${v}) is not below max stack ${maxStack}`);
          return;
        case 'K':
          if (v >= kCount) add(pc, 'hks.operand.constant', `${info.name}: ${field} = K(${v}) but the function has ${kCount} constant(s)`);
          return;
        case 'F':
          if (v > 1) add(pc, 'hks.operand.flag', `${info.name}: ${field} is ${v}, expected 0 or 1`);
          return;
        case 'P':
          if (v >= fn.children.length) add(pc, 'hks.operand.prototype', `${info.name}: P(${v}) but the function has ${fn.children.length} child function(s)`);
          return;
        case 'J': {
          const t = pc + 1 + v;
          if (t < 0 || t >= n) add(pc, 'hks.jump.range', `${info.name}: target ${t} is outside the code (0..${n - 1})`);
          else if (isData(t)) add(pc, 'hks.jump.data', `${info.name}: target ${t} is a DATA word`);
          return;
        }
        default:
          return;
      }
    };
    check(info.a, a, 'A', false);
    if (info.mode === 'ABC') {
      check(info.b, b, 'B', false);
      check(info.c, c, 'C', true);
    } else if (info.mode === 'ABx') check(info.b, bx, 'Bx', false);
    else check(info.b, hksSbx(w), 'sBx', false);

    const span = hksRegisterSpan(info, w);
    if (span) {
      if (span[1] >= maxStack) add(pc, 'hks.operand.span', `${info.name}: uses registers R(${span[0]})..R(${span[1]}), max stack is ${maxStack}`);
      if (info.span === 'loadnil' && span[1] < span[0]) add(pc, 'hks.operand.order', `${info.name}: B ${b} below A ${a}`);
      if (info.span === 'concat' && span[1] <= span[0]) add(pc, 'hks.operand.order', `${info.name}: C ${c} must be above B ${b}`);
    }
    if (info.upvalueB && b >= fn.upvalueCount) add(pc, 'hks.operand.upvalue', `${info.name}: upvalue ${b} but the function has ${fn.upvalueCount}`);
    if (info.check === 'type' && bx >= TYPE_COUNT) add(pc, 'hks.operand.type', `${info.name}: type id ${bx} is not a Lua type`);
    if (info.check === 'struct' && hasStructs && !structIds.has(bx)) add(pc, 'hks.operand.struct', `${info.name}: structure id ${bx} is not declared`);
    if (info.access && (info.access.role === 'field-read' || info.access.role === 'field-write') && info.access.operand !== 'Bx') {
      const index = info.access.operand === 'C' ? c : b;
      const key = fn.constants[index];
      if (key && key.type !== 'string') add(pc, 'hks.operand.fieldkey', `${info.name}: field key K(${index}) is a ${key.type}, not a string`, 'warning');
    }
    if (info.test && (pc + 1 >= n || byOp[hksOp(code[pc + 1]!)]?.name !== 'JMP')) add(pc, 'hks.test.jmp', `${info.name}: the word after a test instruction must be a JMP`, pc + 1 >= n ? 'error' : 'warning');

    // R1 forms: the VM takes the operand from the register the previous instruction wrote (§10), so that
    // instruction must be one that "makes R1", write the same register, and control must not arrive by a jump.
    const r1 = info.r1Operand;
    if (r1) {
      let p = pc - 1;
      while (p >= 0 && isData(p)) p--;
      const prev = p >= 0 ? byOp[hksOp(code[p]!)] : undefined;
      const reg = r1 === 'A' ? a : b;
      if (!prev || !prev.makesR1) add(pc, 'hks.r1.previous', `${info.name}: the previous instruction (${prev?.name ?? 'none'}) does not provide an R1 value`, 'warning');
      else if (hksA(code[p]!) !== reg) add(pc, 'hks.r1.register', `${info.name}: R1 operand R(${reg}) but the previous ${prev.name} wrote R(${hksA(code[p]!)})`, 'warning');
      else if (jumpTargets.has(pc)) add(pc, 'hks.r1.target', `${info.name} is a jump target, so the R1 value may come from elsewhere`, 'warning');
    }

    // DATA ownership
    let run = 0;
    while (pc + 1 + run < n && isData(pc + 1 + run)) run++;
    const child = info.data.kind === 'closure' ? fn.children[bx] : undefined;
    const expected = hksDataWordCount(info, w, child?.upvalueCount);
    if (info.data.kind === 'unknown') {
      if (run !== info.data.assumed) add(pc, 'hks.data.count', `${info.name} is followed by ${run} DATA word(s); its rule is unknown (assumed ${info.data.assumed})`, 'warning', 'hks.data.unknown');
    } else if (info.data.kind === 'optional') {
      if (run > info.data.max) add(pc, 'hks.data.count', `${info.name} is followed by ${run} DATA words, at most ${info.data.max} expected`);
    } else if (expected !== undefined && run !== expected) {
      add(pc, 'hks.data.count', `${info.name} owns ${expected} DATA word(s), ${run} follow`);
    }
    for (let i = 0; i < run; i++) {
      const d = code[pc + 1 + i]!;
      const da = hksA(d);
      const dbx = hksBx(d);
      switch (info.dataPayload) {
        case 'capture':
          if (da === 1 && dbx >= maxStack) add(pc + 1 + i, 'hks.data.capture', `${info.name} capture of R(${dbx}) is not below max stack ${maxStack}`);
          else if (da === 2 && dbx >= fn.upvalueCount) add(pc + 1 + i, 'hks.data.capture', `${info.name} shares upvalue ${dbx} but the function has ${fn.upvalueCount}`);
          else if (da !== 1 && da !== 2) add(pc + 1 + i, 'hks.data.capture', `${info.name} capture kind ${da} (expected 1 = register, 2 = upvalue)`);
          break;
        case 'memo':
          if (dbx + 1 >= kCount) add(pc + 1 + i, 'hks.data.memo', `memo pair K(${dbx}), K(${dbx + 1}) beyond the ${kCount} constant(s)`);
          else if (fn.constants[dbx]!.type !== 'nil' || fn.constants[dbx + 1]!.type !== 'nil') add(pc + 1 + i, 'hks.data.memo', `memo pair K(${dbx}), K(${dbx + 1}) is not two nil constants`, 'warning');
          break;
        case 'structId':
          if (hasStructs && !structIds.has(dbx)) add(pc + 1 + i, 'hks.data.struct', `${info.name}: structure id ${dbx} is not declared`);
          break;
        case 'typeId':
          if (dbx >= TYPE_COUNT) add(pc + 1 + i, 'hks.data.type', `${info.name}: type id ${dbx} is not a Lua type`);
          break;
        default:
          break;
      }
    }
    pc += run;
  }

  if (fn.debug) {
    const d = fn.debug;
    if (d.lines.length !== 0 && d.lines.length !== n) issues.push({ rule: 'hks.debug.lines', message: `${path}: ${d.lines.length} line entries for ${n} code words`, path: `/${path}/debug/lines`, severity: 'warning', hypothesis: 'hks.lines.perword' });
    d.locals.forEach((l, i) => {
      if (l.startPc < 0 || l.endPc > n || l.startPc > l.endPc) issues.push({ rule: 'hks.debug.local', message: `${path}: local ${i} range ${l.startPc}..${l.endPc} outside the code (0..${n})`, path: `/${path}/debug/locals[${i}]`, severity: 'error' });
    });
    if (d.upvalueNames.length !== 0 && d.upvalueNames.length !== fn.upvalueCount) issues.push({ rule: 'hks.debug.upvalues', message: `${path}: ${d.upvalueNames.length} upvalue names for ${fn.upvalueCount} upvalues`, path: `/${path}/debug/upvalueNames`, severity: 'warning' });
  }
  fn.children.forEach((ch, i) => {
    if (ch.upvalueCount > 255) issues.push({ rule: 'hks.upvalues', message: `${path}/${i}: ${ch.upvalueCount} upvalues`, severity: 'warning', path: `/${path}/${i}` });
  });
}

/** Counts findings by severity. */
export function countHksFindings(issues: readonly Issue[]): { error: number; warning: number; info: number } {
  const out = { error: 0, warning: 0, info: 0 };
  for (const i of issues) out[i.severity]++;
  return out;
}
