/**
 * What the VM assumes about the game's interpreter where no real game value settles it, in one place. Each entry
 * says what scry does; `open` ones are guesses to revisit when a real Shadow of War file or run contradicts them.
 */
export interface VmHypothesis {
  id: string;
  statement: string;
  /** `verified` on real files of the same dialect; `inferred` from a public tool or the seed; `open`: our guess. */
  status: 'verified' | 'inferred' | 'open';
}

export const VM_HYPOTHESES: readonly VmHypothesis[] = [
  {
    id: 'vm.number.float32',
    statement: 'With 4-byte numbers every arithmetic result, constant and converted string is rounded to float32 (IEEE round to nearest even), as a C float lua_Number computes; MOD is a - floor(float(a/b))*b.',
    status: 'inferred',
  },
  {
    id: 'vm.tostring.float32',
    statement: "tostring of a float32 number is C's %.14g of the value widened to double (Lua 5.1's LUAI_NUMFFORMAT), so 0.1 prints 0.10000000149012. The game's own tostring is unverified.",
    status: 'open',
  },
  {
    id: 'vm.mode0.noops',
    statement: 'INTRINSIC_* (31-36) and DATA (76) are no-ops; an opcode above 0x5B is refused (the main loop refuses op > 0x5B; the error text is ours).',
    status: 'inferred',
  },
  {
    id: 'vm.mode0.datawords',
    statement: 'An instruction that owns DATA words continues after them (equivalently, runs them as no-ops); a jump onto a DATA word runs it as a no-op.',
    status: 'inferred',
  },
  {
    id: 'vm.checked.message',
    statement: "In --checked mode (mode 2's fetch check) control leaving a function's code raises \"VM Kernel error: invalid instruction pointer.\"; mode 0 has no check (the real VM would run off the code), so scry raises its own error there.",
    status: 'inferred',
  },
  {
    id: 'vm.type.names',
    statement: "type() returns Lua 5.1's names, 'userdata' for light userdata, 'ui64' and 'struct' for HavokScript's own types (hksc's type names).",
    status: 'open',
  },
  {
    id: 'vm.struct.nilPasses',
    statement: 'A nil value passes CHECKTYPE, CHECKTYPES and typed slot stores (typed locals and slots start out nil).',
    status: 'open',
  },
  {
    id: 'vm.struct.checkError',
    statement: 'A failed structure type check raises a catchable Lua error naming the slot or register, the expected and the actual type; the game\'s message is unknown.',
    status: 'open',
  },
  {
    id: 'vm.struct.chain',
    statement: "GETSLOTMT / SETSLOTMT / SELFSLOTMT walk the instance's meta slot, then the __index / __newindex slot each chain word names, down to the final slot; when a link is not a structure the access falls back to ordinary indexing by the slot's name.",
    status: 'inferred',
  },
  {
    id: 'vm.struct.unknownKey',
    statement: 'Reading a key that is not a slot of a structure without proxy table or meta __index gives nil; writing one raises an error.',
    status: 'open',
  },
  {
    id: 'vm.table.order',
    statement: 'pairs/next visit the array part in order, then the hash part in insertion order (hksc\'s FromSoftware builds order hash tables by insertion); Lua 5.1 itself visits the hash part in hash order, so programs printing pairs() order of non-array keys differ from lua5.1.',
    status: 'open',
  },
];
