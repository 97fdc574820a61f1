/**
 * `.embb` campaign (the tools' layout, hypothesis `embb.toolsLayout`): `npm run fuzz -- embb`. No real `.embb`
 * has been decoded: seeds are sections laid out by that hypothesis (one, two back to back, a larger one). Per
 * case: `parseEmbbHypothesis`, which must refuse with a typed error naming where the file departs, in time and
 * memory linear in the input.
 */
import { parseEmbbHypothesis } from '../src/formats/embb/embb.ts';
import { formatCampaign, typed, type FuzzTarget } from './harness.ts';

/** One EMBB v5 section under the tools' layout: names, their offsets, then {u32 size, data} per resource. */
export function embbSection(resources: ReadonlyArray<{ name: string; data: Uint8Array }>): Uint8Array {
  const names = resources.map((r) => new TextEncoder().encode(r.name + '\0'));
  const namesSize = names.reduce((n, b) => n + b.length, 0);
  const size = 16 + namesSize + 4 * resources.length + resources.reduce((n, r) => n + 4 + r.data.length, 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set([0x45, 0x4d, 0x42, 0x42]);
  dv.setUint32(4, 5, true);
  dv.setUint32(8, namesSize, true);
  dv.setUint32(12, resources.length, true);
  let at = 16;
  const offsets: number[] = [];
  for (const n of names) {
    offsets.push(at - 16);
    out.set(n, at);
    at += n.length;
  }
  for (const o of offsets) {
    dv.setUint32(at, o, true);
    at += 4;
  }
  for (const r of resources) {
    dv.setUint32(at, r.data.length, true);
    out.set(r.data, at + 4);
    at += 4 + r.data.length;
  }
  return out;
}

const bytes = (n: number, k: number) => Uint8Array.from({ length: n }, (_, i) => (i * k) & 0xff);
const one = embbSection([{ name: 'x.y', data: bytes(3, 7) }]);
const three = embbSection([{ name: 'worlds\\a.tex', data: bytes(40, 3) }, { name: 'b.mdl', data: bytes(9, 5) }, { name: '', data: new Uint8Array(0) }]);

export const target: FuzzTarget = {
  id: 'embb',
  seeds: () => [one, Uint8Array.from([...one, ...three]), three, embbSection(Array.from({ length: 24 }, (_, i) => ({ name: `res${i}.bin`, data: bytes(i * 5, i + 1) })))],
  open: (b) => parseEmbbHypothesis(b),
  check: (b) => typed(() => void parseEmbbHypothesis(b)),
};

export const fuzz = formatCampaign(import.meta.url, target);
