/**
 * End to end in real headless Chromium: open the sample, search a name, follow a link, check referenced-by, go
 * back and forward, edit a value, save, and read the saved file back with the library; then scroll a large
 * generated category. Screenshots of the main views go to `test/e2e/artifacts/` (ignored by git).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import { verifyGadb } from '../../src/formats/gadb/index.ts';
import { generateGadbBytes } from '../../src/gamedb/generate/index.ts';
import { readBytes } from '../../src/node/fs.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { packArch06 } from '../../src/formats/arch06/pack.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';
import { firstPage, launchChromium, type Browser } from './browser.ts';

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));

describe('workbench in headless Chromium', () => {
  let dir: string;
  let wb: Workbench;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'scry-e2e-'));
    copyFileSync(fixturePath('gadb', 'landmine_curse.fxp'), join(dir, 'landmine_curse.fxp'));
    // A twentieth of the game's database: thousands of records in its largest categories.
    writeFileSync(join(dir, 'generated.gamedb'), generateGadbBytes({ seed: 919, scale: 0.05 }).bytes);
    const archiveEntries = [
      { path: 'docs/readme.txt', data: new TextEncoder().encode('Packed by scry for the end-to-end test.\n') },
      { path: 'gamedb/landmine_curse.fxp', data: loadFixture('gadb', 'landmine_curse.fxp') },
    ];
    writeFileSync(join(dir, 'e2e.arch06'), packArch06(archiveEntries, { storage: 'lzb16' }).bytes);
    wb = await startWorkbench({
      files: [
        { path: join(dir, 'landmine_curse.fxp'), origin: 'argument' },
        { path: join(dir, 'generated.gamedb'), origin: 'argument' },
        { path: fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'), origin: 'sample' },
        { path: join(dir, 'e2e.arch06'), origin: 'argument' },
        { path: fixturePath('hks', 'generated', 'closures.debug.luac'), origin: 'sample' },
      ],
      port: 0,
      sampleOutDir: join(dir, 'out'),
      sd2NameFiles: [fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-names.txt')],
    });
    browser = await launchChromium();
    page = await firstPage(browser, errors);
  });

  afterAll(async () => {
    await browser?.close();
    await wb?.close();
  });

  it('opens the sample from the file list and shows its overview', async () => {
    await page.goto(wb.url);
    await page.getByRole('link', { name: /landmine_curse\.fxp/ }).click();
    await page.waitForURL(/\/f\/landmine_curse\.fxp$/);
    expect(await page.locator('.count b').first().textContent()).toBe('12');
    await page.locator('.badge.good', { hasText: 'no findings' }).waitFor();
    await shot('overview');
  });

  it('searches a name and jumps to the record', async () => {
    await page.locator('input.search').fill('FxGlobalProps');
    await page.locator('input.search').press('Enter');
    await page.waitForURL(/\/search\?q=FxGlobalProps/);
    const hit = page.locator('.hit-record a').first();
    expect(await hit.textContent()).toBe('FxGlobalProps / FxGlobalProps');
    await shot('search');
    await hit.click();
    await page.waitForURL(/\/c\/FxGlobalProps\/r\/FxGlobalProps$/);
    expect(await page.locator('.rec-title h3').textContent()).toBe('FxGlobalProps');
  });

  it('follows a link and sees where it is referenced from', async () => {
    const links = page.locator('.field[data-field="0xCA5E75DD"] .v-array a.v-link');
    expect(await links.count()).toBe(15);
    await links.nth(1).click();
    await page.waitForURL(/\/c\/ClientFX\.Sprite\/r\/1$/);
    expect(await page.locator('.rec-title h3').textContent()).toBe('1');
    const ref = page.locator('.ref-list li').first();
    await ref.waitFor();
    expect(await ref.textContent()).toContain('FxGlobalProps / FxGlobalProps');
    expect(await page.locator('.vt-row.selected .name').textContent()).toContain('1');
    await shot('record');
  });

  it('goes back and forward through followed links', async () => {
    await page.locator('button[title^="Back"]').click();
    await page.waitForURL(/\/r\/FxGlobalProps$/);
    await page.locator('.rec-title h3', { hasText: 'FxGlobalProps' }).waitFor();
    await page.goForward();
    await page.waitForURL(/\/c\/ClientFX\.Sprite\/r\/1$/);
    await page.locator('.rec-title h3', { hasText: /^1$/ }).waitFor();
  });

  it('edits a value, shows the staged diff, and saves a new file the library reads back', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    const endTime = page.locator('.field', { hasText: 'EndTime' }).locator('input.editor');
    await endTime.fill('0.5');
    await endTime.press('Enter');
    await page.locator('.field.staged', { hasText: 'EndTime' }).waitFor();
    expect(await page.locator('.edits-badge').textContent()).toBe('1 staged');
    await page.locator('.edits-badge').click();
    await page.waitForURL(/\/edits$/);
    expect(await page.locator('td.del').textContent()).toBe('0.084');
    expect(await page.locator('td.ins').textContent()).toBe('0.5');
    await shot('edits');
    await page.getByRole('button', { name: 'Save new file' }).click();
    await page.locator('.save-result .ok').waitFor();
    const bytes = readBytes(join(dir, 'landmine_curse.edited.fxp'));
    expect(verifyGadb(bytes).filter((i) => i.severity === 'error')).toEqual([]);
    const db = Database.open(bytes);
    expect(db.getRecord('ClientFX.Sprite', '1').getFloat(0x5e0b44d0)).toBe(0.5);
    expect(db.getRecord('ClientFX.Sprite', '8').getFloat(0x5e0b44d0)).toBe(Math.fround(0.122));
    await page.getByRole('button', { name: 'Edit' }).click();
  });

  it('hashes text in the page (P919) and keeps the query in the URL', async () => {
    await page.goto(`${wb.url}hash?text=CombatProp`);
    await page.locator('.hash-value', { hasText: '0x9CE11687' }).waitFor();
    await page.locator('input[aria-label="text"]').fill('3DRotation');
    await page.locator('.hash-value', { hasText: '0xA37788CC' }).waitFor();
    expect(page.url()).toContain('/hash?text=3DRotation');
    await shot('hash');
  });

  it('shows an sd2 table with NULL cells and finds a value in it', async () => {
    await page.goto(`${wb.url}f/sample-beta-1869.sd2`);
    await page.locator('.side-list a.cat', { hasText: 'dbtest::PoolTypes' }).click();
    await page.waitForURL(/\/t\/dbtest%3A%3APoolTypes$/);
    const row1 = page.locator('.table-host .vt-row[data-index="1"]');
    await row1.waitFor();
    expect(await row1.locator('.v-null').count()).toBe(8);
    // The table fills the view (a zero-height scroller would hide every row while the DOM holds them).
    expect(await page.locator('.table-host .vt').evaluate((el) => el.clientHeight)).toBeGreaterThan(300);
    await shot('sd2');
    await page.locator('input.search').fill('first');
    await page.locator('input.search').press('Enter');
    await page.locator('.hit a', { hasText: 'dbtest::PoolTypes:0' }).first().click();
    await page.waitForURL(/row=0$/);
  });

  it('scrolls a large category with a virtual table: few rows in the DOM, pages fetched on demand', async () => {
    const cats = (await (await fetch(`${wb.url}api/files/generated.gamedb/categories`)).json()) as { name: string; recordCount: number }[];
    const big = cats.reduce((a, b) => (b.recordCount > a.recordCount ? b : a));
    expect(big.recordCount).toBeGreaterThan(2000);
    await page.goto(`${wb.url}f/generated.gamedb/c/${encodeURIComponent(big.name)}`);
    const table = page.locator('.table-host .vt');
    await table.locator('.vt-row:not(.loading)').first().waitFor();
    await shot('table');
    await table.evaluate((el) => (el.scrollTop = el.scrollHeight));
    const last = table.locator(`.vt-row[data-index="${big.recordCount - 1}"]`);
    await last.waitFor();
    expect(await table.locator('.vt-row').count()).toBeLessThan(120);
    // Columns are virtual too: a row holds the cells in view, not one per field.
    const detail = (await (await fetch(`${wb.url}api/files/generated.gamedb/categories/${encodeURIComponent(big.name)}`)).json()) as { fields: unknown[] };
    if (detail.fields.length > 20) expect(await last.locator('.vt-cell').count()).toBeLessThan(detail.fields.length + 1);
    await last.click();
    await page.waitForURL(/\/r\//);
    await page.locator('.inspector.open .rec-title h3').waitFor();
    await shot('table-record');
    expect(errors).toEqual([]);
  });

  it('opens an archive: overview with verify, the tree, an entry with its content and a download link, a GameDB entry in place', async () => {
    await page.goto(`${wb.url}f/e2e.arch06`);
    await page.locator('.badge.good', { hasText: 'no findings' }).waitFor();
    await shot('archive');
    await page.locator('.arch-tree a.tree-file', { hasText: 'readme.txt' }).click();
    await page.waitForURL(/\/f\/e2e\.arch06\/e\/docs\/readme\.txt$/);
    expect(await page.locator('pre.entry-preview.text').textContent()).toBe('Packed by scry for the end-to-end test.\n');
    expect(await page.locator('a.button', { hasText: 'Download' }).getAttribute('href')).toBe('/api/files/e2e.arch06/arch/entries/docs%2Freadme.txt/content');
    expect(await page.locator('.arch-tree .vt-row.selected').textContent()).toContain('readme.txt');
    await shot('archive-entry');
    // a GameDB entry opens in the workbench (extracted to the output folder)
    await page.locator('.arch-tree a.tree-file', { hasText: 'landmine_curse.fxp' }).click();
    await page.getByRole('button', { name: 'Open the GameDB' }).click();
    await page.waitForURL(/\/f\/landmine_curse\.fxp~2$/);
    await page.locator('.badge.good', { hasText: 'no findings' }).waitFor();
    expect(await page.locator('.count b').first().textContent()).toBe('12');
    expect(errors).toEqual([]);
  });

  it('opens a script and shows its listing', async () => {
    await page.goto(`${wb.url}f/closures.debug.luac`);
    await page.locator('.badge.good', { hasText: '0 errors' }).waitFor();
    await shot('script');
    await page.getByRole('link', { name: /^listing \(/ }).click();
    await page.waitForURL(/\/f\/closures\.debug\.luac\/listing$/);
    await page.locator('.table-host .vt-row', { hasText: '.function main' }).first().waitFor();
    await shot('script-listing');
    expect(errors).toEqual([]);
  });
});
