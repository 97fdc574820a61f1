/**
 * The workbench bugs of issue 17 that only a browser shows (the numbers are the issue's), in headless Chromium.
 * Each test failed before its fix; the API-visible bugs are in `test/server/bugs.test.ts`.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packArch06 } from '../../src/formats/arch06/pack.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';
import { launchChromium, type Browser } from './browser.ts';

const FILE = 'landmine_curse.fxp';
const RECORD = `/f/${FILE}/c/FxGlobalProps/r/FxGlobalProps`;

describe('workbench bugs in headless Chromium', () => {
  let dir: string;
  let wb: Workbench;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const go = async (path: string) => {
    await page.goto(wb.url + path.replace(/^\//, ''));
  };
  const editMode = async (on: boolean) => {
    const toggle = page.getByRole('button', { name: 'Edit' });
    if ((await toggle.getAttribute('aria-pressed')) !== String(on)) await toggle.click();
  };
  const clearEdits = () => fetch(`${wb.url}api/files/${FILE}/edits`, { method: 'DELETE', headers: { 'x-scry-token': wb.token } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scry-e2e-bugs-'));
    copyFileSync(fixturePath('gadb', FILE), join(dir, FILE));
    const entries = [
      { path: 'docs/readme.txt', data: new TextEncoder().encode('Packed by scry for the end-to-end test.\n') },
      { path: 'gamedb/landmine_curse.fxp', data: loadFixture('gadb', FILE) },
    ];
    writeFileSync(join(dir, 'e2e.arch06'), packArch06(entries, { storage: 'lzb16' }).bytes);
    wb = await startWorkbench({
      files: [
        { path: join(dir, FILE), origin: 'argument' },
        { path: join(dir, 'e2e.arch06'), origin: 'argument' },
        { path: fixturePath('hks', 'generated', 'closures.debug.luac'), origin: 'sample' },
      ],
      port: 0,
      sampleOutDir: join(dir, 'out'),
    });
    browser = await launchChromium({ width: 1440, height: 900 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (e) => errors.push(e.message));
    page.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await browser?.close();
    await wb?.close();
  });

  it('1: double-clicking Save saves once and shows no refusal', async () => {
    await clearEdits();
    await go(RECORD);
    await editMode(true);
    const int = page.locator('.field[data-field="0x3114F9A5"] input.editor');
    await int.fill('6100');
    await int.press('Enter');
    await page.locator('.field.staged[data-field="0x3114F9A5"]').waitFor();
    await go(`/f/${FILE}/edits`);
    await page.locator('input.save-name').fill('double.fxp');
    await page.getByRole('button', { name: 'Save new file' }).dblclick();
    await page.locator('.save-result .ok').waitFor();
    await page.waitForTimeout(300);
    expect(await page.locator('.save-result .error').count()).toBe(0);
    expect(await page.locator('.toast.error').count()).toBe(0);
    await editMode(false);
  });

  it('2: an invalid value shows one toast, not two', async () => {
    await go(RECORD);
    await editMode(true);
    const float = page.locator('.field[data-field="0xE907FA5A"] input.editor');
    await float.fill('abc');
    await float.press('Enter');
    await page.locator('.toast.error').first().waitFor();
    await float.press('Tab');
    await page.waitForTimeout(300);
    expect(await page.locator('.toast.error').count()).toBe(1);
    await editMode(false);
  });

  it('4: RecordLink values are real links: the address is the record\'s, Ctrl+click opens it in a new tab', async () => {
    await go(RECORD);
    const link = page.locator('.field[data-field="0xCA5E75DD"] a.v-link').nth(1);
    expect(await link.getAttribute('href')).toBe(`/f/${FILE}/c/ClientFX.Sprite/r/1`);
    const [tab] = await Promise.all([browser.context.waitForEvent('page'), link.click({ modifiers: ['Control'] })]);
    await tab.waitForURL(/\/c\/ClientFX\.Sprite\/r\/1$/);
    await tab.close();
    expect(page.url()).toMatch(/\/r\/FxGlobalProps$/);
  });

  it('5: ← in a tab opened on a deep link stays in the workbench', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(`${wb.url}f/${FILE}/c/ClientFX.Sprite/r/1`);
    await tab.locator('.rec-title h3', { hasText: /^1$/ }).waitFor();
    await tab.locator('button[title^="Back"]').click();
    await tab.waitForTimeout(300);
    expect(tab.url()).toBe(`${wb.url}f/${FILE}/c/ClientFX.Sprite`);
    await tab.close();
  });

  it('7: the link editor accepts Category/Record, the form the server\'s messages use', async () => {
    await clearEdits();
    await go(RECORD);
    await editMode(true);
    const element = page.locator('.field[data-field="0xCA5E75DD"] input.editor').nth(1);
    await element.fill('ClientFX.Wind/6');
    await element.press('Enter');
    await page.locator('.field.staged[data-field="0xCA5E75DD"]').waitFor();
    expect(await page.locator('.toast.error').count()).toBe(0);
    await clearEdits();
    await editMode(false);
  });

  it('9: a Bool editor\'s label stays on one line at 1440 px', async () => {
    await go(RECORD);
    await editMode(true);
    const label = page.locator('.field[data-field="0x776BA58F"] label.check');
    const box = (await label.boundingBox())!;
    expect(box.height).toBeLessThan(30);
    expect(await label.textContent()).toContain('false');
    await editMode(false);
  });

  it('15: searching on an archive page searches that archive, not another file', async () => {
    await go('/f/e2e.arch06');
    await page.locator('input.search').fill('readme');
    await page.locator('input.search').press('Enter');
    await page.waitForURL(/\/f\/e2e\.arch06\/search\?q=readme$/);
    await page.locator('.hit a', { hasText: 'docs\\readme.txt' }).waitFor();
    await go('/f/closures.debug.luac');
    await page.locator('input.search').fill('CLOSURE');
    await page.locator('input.search').press('Enter');
    await page.waitForURL(/\/f\/closures\.debug\.luac\/search\?q=CLOSURE$/);
    await page.locator('.hit a', { hasText: /^line \d+$/ }).first().waitFor();
  });

  it('16: an archive entry opened as a GameDB is told apart from the file of the same name in the menu', async () => {
    await go('/f/e2e.arch06');
    await page.locator('.arch-tree a.tree-file', { hasText: FILE }).click();
    await page.getByRole('button', { name: 'Open the GameDB' }).click();
    await page.waitForURL(/\/f\/landmine_curse\.fxp~2$/);
    const labels = await page.locator('select.file-select option').allTextContents();
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain(`${FILE} (from e2e.arch06)`);
  });

  it('18: the home and hash pages show no file in the menu and no Edit button', async () => {
    for (const path of ['/', '/hash']) {
      await go(path);
      await page.locator('select.file-select').waitFor();
      expect(await page.locator('select.file-select').inputValue()).toBe('');
      expect(await page.getByRole('button', { name: 'Edit' }).isVisible()).toBe(false);
    }
    expect(errors).toEqual([]);
  });
});
