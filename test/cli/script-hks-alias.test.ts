import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

describe('scry hks (the issue\'s spelling of scry script)', () => {
  it('runs the same commands with the same output', async () => {
    const file = fixturePath('hks', 'generated', 'loops.debug.luac');
    for (const verb of ['info', 'disasm', 'verify', 'strings']) {
      const viaScript = await runCli(['script', verb, file]);
      const viaHks = await runCli(['hks', verb, file]);
      expect(viaHks.code, verb).toBe(viaScript.code);
      expect(viaHks.stdout, verb).toBe(viaScript.stdout);
      expect(viaHks.stdout.length, verb).toBeGreaterThan(0);
    }
  });
});
