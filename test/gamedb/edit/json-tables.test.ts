import { describe, expect, it } from 'vitest';
import { BlockItems, FNV_SEED, LabelTable, fnv } from '../../../src/gamedb/edit/json-tables.ts';

const enc = new TextEncoder();

describe('lossless JSON import tables', () => {
  it('BlockItems stores each (kind, bytes) once, across many table growths', () => {
    const items = new BlockItems(enc.encode('root'));
    const keys = new Map<string, number>();
    // 6,000 distinct texts (the slot table starts at 2,048 slots: several rehashes), each added three times.
    for (let pass = 0; pass < 3; pass++) {
      for (let i = 0; i < 6000; i++) {
        const t = enc.encode(`text-${i}`);
        const key = items.text(1, t, 0, t.length);
        const id = `1:${i}`;
        if (pass === 0) keys.set(id, key);
        else expect(key).toBe(keys.get(id));
      }
    }
    // The same bytes under another kind are another item.
    const t = enc.encode('text-7');
    expect(items.text(2, t, 0, t.length)).not.toBe(keys.get('1:7'));
    const block = items.finish();
    expect(block.itemKeys.length).toBe(1 + 6000 + 1);
    expect(block.itemSizes[0]).toBe(4);
    // Every item: its bytes, a NUL, zero padding to 4.
    const k = keys.get('1:123')!;
    expect(new TextDecoder().decode(block.data.subarray(k, k + 8))).toBe('text-123');
    expect(block.data[k + 8]).toBe(0);
    expect(k % 4).toBe(0);
  });

  it('LabelTable resolves links to earlier and later records and marks a label two records define', () => {
    const items = new BlockItems(new Uint8Array(0));
    const labels = new LabelTable(items, 16);
    const name = (s: string): [number, number] => {
      const b = enc.encode(s);
      return [items.text(1, b, 0, b.length), b.length];
    };
    const ref = (s: string): number => {
      const b = enc.encode(s);
      return labels.ref(b, 0, b.length);
    };
    // Forward references first (5,000 labels, 190 KB: the tables grow several times and the bytes span several
    // arena chunks, one label longer than a chunk), then the records.
    const pad = 'x'.repeat(24);
    const long = 'L'.repeat(1_500_000);
    const forward = Array.from({ length: 5000 }, (_, i) => ref(`Cat/rec${i}${i === 2500 ? long : pad}`));
    labels.addCategory(enc.encode('Cat'), 2);
    expect(labels.define(0, 0, 0, 0)).toBe(true);
    expect(labels.define(0, 1, 0, 0)).toBe(true);
    for (let i = 0; i < 5000; i++) expect(labels.define(0, 2 + i, ...name(`rec${i}${i === 2500 ? long : pad}`))).toBe(true);
    for (let i = 0; i < 5000; i++) expect(labels.target(forward[i]!)).toBe(2 + i);
    expect(labels.target(ref('Cat/#1'))).toBe(1);
    expect(labels.target(ref(`Cat/rec4999${pad}`))).toBe(5001);
    expect(labels.target(ref(`Cat/rec2500${long}`))).toBe(2502);
    expect(labels.target(ref('Cat/rec4999'))).toBe(-1);
    expect(labels.target(ref('Cat/nothing'))).toBe(-1);
    expect(labels.text(ref(`Cat/rec17${pad}`))).toBe(`Cat/rec17${pad}`);
    expect(labels.text(ref('Cat/later'))).toBe('Cat/later');
    // A second record with a label a link named: ambiguous (define says so); one nobody named is only marked.
    expect(labels.define(0, 5002, ...name(`rec3${pad}`))).toBe(false);
    expect(labels.target(forward[3]!)).toBe(-2);
    labels.addCategory(enc.encode('Other'), 0);
    expect(labels.define(1, 0, ...name('x'))).toBe(true);
    expect(labels.define(1, 1, ...name('x'))).toBe(true);
    expect(labels.target(ref('Other/x'))).toBe(-2);
  });

  it('LabelTable tells apart two labels of the same length whose 32-bit hashes collide', () => {
    // Two record names of one length whose full labels share an FNV-1a hash (found by a birthday search over
    // "Cat/rec0000000"…; the first assertion holds the pair to it): only the byte comparison behind the hash keeps
    // their links apart.
    const label = (i: number): string => `Cat/rec${String(i).padStart(7, '0')}`;
    const [x, y] = [539_599, 722_382];
    const ex = enc.encode(label(x));
    const ey = enc.encode(label(y));
    expect(fnv(FNV_SEED, ex, 0, ex.length)).toBe(fnv(FNV_SEED, ey, 0, ey.length));
    for (const forwardFirst of [true, false]) {
      const items = new BlockItems(new Uint8Array(0));
      const labels = new LabelTable(items, 16);
      const ref = (b: Uint8Array): number => labels.ref(b, 0, b.length);
      const define = (index: number, i: number): boolean => {
        const b = enc.encode(label(i).slice('Cat/'.length));
        return labels.define(0, index, items.text(1, b, 0, b.length), b.length);
      };
      // forward references (compared against definitions as they arrive) or links after their records
      const early = forwardFirst ? [ref(ex), ref(ey)] : [];
      labels.addCategory(enc.encode('Cat'), 0);
      expect(define(0, x)).toBe(true);
      expect(define(1, y)).toBe(true);
      const [rx, ry] = forwardFirst ? early : [ref(ex), ref(ey)];
      expect(rx).not.toBe(ry);
      expect(labels.target(rx!)).toBe(0);
      expect(labels.target(ry!)).toBe(1);
      expect(labels.text(ry!)).toBe(label(y));
    }
  });
});
