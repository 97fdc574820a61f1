/**
 * The workbench a modder keeps open all day (issue 17), in headless Chromium: names loaded from a list and found
 * by the name finder, a deep link followed from another site, numeric search, tables like xEdit's, the conflict
 * view, and a keyboard-only walk from a search to an edited, saved value. Screenshots of the main pages at 1440
 * and 1024 px go to `test/e2e/artifacts/` (ignored by git).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { p919 } from '../../src/hash/p919.ts';
import { Database, type DbRecord } from '../../src/gamedb/database.ts';
import { generateGadbBytes } from '../../src/gamedb/generate/index.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { fixturePath } from '../support/fixtures.ts';
import { launchChromium, type Browser } from './browser.ts';

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));
const FILE = 'landmine_curse.fxp';
const hex = (h: number) => '0x' + h.toString(16).toUpperCase().padStart(8, '0');

describe('the workbench a modder keeps open all day', () => {
  let dir: string;
  let wb: Workbench;
  let browser: Browser;
  let page: Page;
  let generated: Uint8Array;
  const errors: string[] = [];
  const go = (path: string) => page.goto(wb.url + path.replace(/^\//, ''));
  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'scry-e2e-modder-'));
    copyFileSync(fixturePath('gadb', FILE), join(dir, FILE));
    // a community list: ModelColor as a plain name, ModelScale as a checked pair
    writeFileSync(join(dir, 'community.txt'), `ModelColor\n${hex(p919('ModelScale'))}\tModelScale\n`);
    // a fiftieth of the game's database: categories of thousands of records, records named by hundreds of links
    generated = generateGadbBytes({ seed: 919, scale: 0.02 }).bytes;
    // two change files that disagree on one field (6000 in the file), agree on another, and each change one alone
    writeFileSync(join(dir, 'a.yaml'), ['- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 100', '- set ClientFX.Sound/13.KeyName = "from a"', '- set ClientFX.Sound/13.StartTime = 0.25', ''].join('\n'));
    writeFileSync(join(dir, 'b.yaml'), ['- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 200', '- set ClientFX.Sound/13.StartTime = 0.25', '- set ClientFX.Sprite/1.EndTime = 9', ''].join('\n'));
    writeFileSync(join(dir, 'generated.gamedb'), generated);
    wb = await startWorkbench({
      files: [
        { path: join(dir, FILE), origin: 'argument' },
        { path: join(dir, 'generated.gamedb'), origin: 'argument' },
        { path: join(dir, 'a.yaml'), origin: 'argument' },
        { path: join(dir, 'b.yaml'), origin: 'argument' },
        { path: fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'), origin: 'sample' },
      ],
      port: 0,
      sampleOutDir: join(dir, 'out'),
      nameFiles: [join(dir, 'community.txt')],
      sd2NameFiles: [fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-names.txt')],
      configDir: join(dir, 'config'),
      workDir: join(dir, 'work'),
    });
    browser = await launchChromium({ width: 1440, height: 900 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await wb?.close();
  });

  it('shows names from a loaded list in the column headers, and the coverage on the overview', async () => {
    await go(`/f/${FILE}/c/ClientFX.Model`);
    await page.locator('.vt-head .col-head b', { hasText: /^ModelColor$/ }).waitFor();
    await page.locator('.vt-head .col-head b', { hasText: /^ModelScale$/ }).waitFor();
    await go(`/f/${FILE}`);
    await page.locator('.names .coverage', { hasText: '35 of 348 field hashes named' }).waitFor();
    expect(await page.locator('.names').textContent()).toContain('community.txt (+2)');
  });

  it('finds names with the name finder and, once added, shows a cracked name in a column', async () => {
    await go(`/f/${FILE}/c/ClientFX.Rumble`);
    await page.locator('.vt-head .col-head b', { hasText: hex(p919('Intensity2')) }).waitFor();
    await go(`/f/${FILE}`);
    await page.getByRole('button', { name: 'Find names' }).click();
    const row = page.locator('table.crack-hits tr', { hasText: 'Intensity2' });
    await row.waitFor();
    expect(await row.locator('td.hash').textContent()).toBe(hex(p919('Intensity2')));
    await shot('names-1440');
    await page.getByRole('button', { name: 'Add the checked names' }).click();
    await page.locator('.names .coverage', { hasText: /^\d+ of 348 field hashes named/ }).waitFor();
    await go(`/f/${FILE}/c/ClientFX.Rumble`);
    await page.locator('.vt-head .col-head b', { hasText: /^Intensity2$/ }).waitFor();
  });

  it('opens a deep link clicked on another site (a forum page) on the record it names', async () => {
    const deep = `${wb.url}f/${FILE}/c/ClientFX.Sprite/r/1?field=0x5E0B44D0`;
    await page.route('https://forum.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>forum</title><p>Look at <a id="deep" href="${deep}">this sprite</a></p>` }),
    );
    await page.goto('https://forum.example/thread/1');
    await page.locator('#deep').click();
    await page.waitForURL(deep);
    await page.locator('.rec-title h3', { hasText: /^1$/ }).waitFor();
    await page.locator('.field.highlight[data-field="0x5E0B44D0"]').waitFor();
    expect(await page.locator('body').textContent()).not.toContain('refused');
  });

  it('finds numbers: an Int, a Float by its shown value and within a tolerance', async () => {
    await go(`/f/${FILE}`);
    await page.locator('input.search').fill('6000');
    await page.locator('input.search').press('Enter');
    await page.waitForURL(/\/search\?q=6000$/);
    const hit = page.locator('.hit-value', { hasText: 'FxGlobalProps / FxGlobalProps' });
    await hit.waitFor();
    expect(await hit.locator('.hit-text').textContent()).toBe('6000');
    await page.locator('input.search').fill('0.08~0.005');
    await page.locator('input.search').press('Enter');
    await page.locator('.hit-value', { hasText: 'ClientFX.Sprite / 1' }).locator('.hit-field', { hasText: 'EndTime' }).waitFor();
    expect(await page.locator('.search p.muted').textContent()).toContain('number 0.08 ± 0.005');
    await shot('search-number-1440');
    expect(errors).toEqual([]);
  });

  it('has tables like xEdit\'s: sort and filter a column, a sorted sidebar whose groups fold, referenced-by past 200, a cell in full, Home/End/Escape', async () => {
    const db = Database.open(generated);
    // the largest category with an Int or Float column, and the library's own count for a filter on it
    const cat = [...db.categories].sort((a, b) => b.recordCount - a.recordCount).find((c) => c.firstRecordWithFields()?.fields().some((f) => (f.typeName === 'Int' || f.typeName === 'Float') && f.count === 1))!;
    const field = cat.firstRecordWithFields()!.fields().find((f) => (f.typeName === 'Int' || f.typeName === 'Float') && f.count === 1)!;
    const read = (r: DbRecord) => (field.typeName === 'Int' ? r.getInt(field.hash) : r.getFloat(field.hash));
    const values = cat.records().map(read).sort((a, b) => a - b);
    const median = values[Math.floor(values.length / 2)]!;
    const fhex = hex(field.hash);
    await go(`/f/generated.gamedb/c/${encodeURIComponent(cat.name)}`);
    const table = page.locator('.table-host .vt');
    await table.locator('.vt-row:not(.loading)').first().waitFor();
    const heads = page.locator('.table-host .vt-head .vt-hcell');
    const col = await heads.evaluateAll((els, h) => els.findIndex((e) => (e.getAttribute('title') ?? '').includes(h)), fhex);
    // sort: click the header, the URL keeps it, the first rows are the smallest
    await heads.nth(col).locator('.vt-hlabel').click();
    await page.waitForURL(new RegExp(`sort=${fhex}`));
    await page.locator('.vt-hcell.sorted').waitFor();
    const firstCell = table.locator('.vt-row[data-index="0"] .vt-cell[data-col="' + col + '"]');
    await firstCell.waitFor();
    expect(Number(await firstCell.textContent())).toBe(Number(values[0]!.toPrecision(9)));
    // filter: the title counts the kept records as the library does
    const kept = values.filter((v) => v > median).length;
    await heads.nth(col).locator('input.vt-filter').fill(`>${median}`);
    await page.locator('.table-title .muted', { hasText: `${kept.toLocaleString('en-US')} of ${cat.recordCount.toLocaleString('en-US')} records` }).waitFor();
    expect(page.url()).toContain(`filter.${fhex}=`);
    await shot('table-filtered-1440');
    await page.getByRole('button', { name: 'clear filters' }).click();
    await page.locator('.table-title .muted', { hasText: `${cat.recordCount.toLocaleString('en-US')} records` }).waitFor();

    // keyboard: focus is visible; End, Home, Space shows the whole cell, Escape closes it, then the record
    await table.focus();
    expect(await table.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('End');
    await page.waitForURL(new RegExp(`/r/${encodeURIComponent(cat.at(cat.recordCount - 1)!.label).replace(/[#]/g, '%23')}$`));
    await page.keyboard.press('Home');
    await page.waitForURL(new RegExp(`/r/${encodeURIComponent(cat.at(0)!.label).replace(/[#]/g, '%23')}$`));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    const dialog = page.locator('dialog.cell-view');
    await dialog.waitFor();
    await shot('cell-view-1440');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.waitForURL(new RegExp(`/c/${encodeURIComponent(cat.name)}$`));

    // sidebar: sorted A–Z, groups fold and unfold
    const groups = page.locator('.side-list .side-group .cat-name');
    const names = await groups.allTextContents();
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const firstGroup = names[0]!;
    const members = db.categories.filter((c) => c.name.startsWith(firstGroup + '.') || c.name.startsWith(firstGroup + '/')).length;
    const rows = () => page.locator('.side-list .vt-row').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    expect((await rows())[1]).not.toContain(names[1]!);
    await groups.first().click();
    await page.locator('.side-list .side-group .fold', { hasText: '▸' }).first().waitFor();
    // folded: the next row is the next group (or an ungrouped category), not a member of the first
    expect(members).toBeGreaterThan(1);
    expect((await rows())[1]).not.toMatch(new RegExp(`^\\.`));
    await groups.first().click();
    await page.locator('.side-list .side-group .fold', { hasText: '▾' }).first().waitFor();

    // referenced-by: the most linked-to record shows 200, then 200 more
    let best = db.record(0);
    for (let r = 0; r < db.recordCount; r++) if (db.referenceCount(db.record(r)) > db.referenceCount(best)) best = db.record(r);
    expect(db.referenceCount(best)).toBeGreaterThan(200);
    await go(`/f/generated.gamedb/c/${encodeURIComponent(best.category.name)}/r/${encodeURIComponent(best.label)}`);
    await page.locator('.ref-list li').nth(199).waitFor();
    expect(await page.locator('.ref-list li').count()).toBe(200);
    await page.locator('.refs-more button').click();
    await page.locator('.ref-list li').nth(Math.min(399, db.referenceCount(best) - 1)).waitFor();
    expect(await page.locator('.ref-list li').count()).toBe(Math.min(400, db.referenceCount(best)));
    expect(errors).toEqual([]);
  });

  it('keeps at least four data columns beside the record at 1024 px', async () => {
    const narrow = await browser.context.newPage();
    await narrow.setViewportSize({ width: 1024, height: 768 });
    await narrow.goto(`${wb.url}f/${FILE}/c/ClientFX.Sprite/r/1`);
    await narrow.locator('.inspector.open .rec-title h3').waitFor();
    const visible = await narrow.locator('.table-host .vt').evaluate((vt) => {
      const box = vt.getBoundingClientRect();
      const sticky = vt.querySelector('.vt-head .vt-hcell.sticky')!.getBoundingClientRect();
      return Array.from(vt.querySelectorAll('.vt-head .vt-hcell:not(.sticky)')).filter((c) => {
        const r = c.getBoundingClientRect();
        return r.left >= sticky.right - 1 && r.right <= box.right + 1;
      }).length;
    });
    expect(visible).toBeGreaterThanOrEqual(4);
    await narrow.screenshot({ path: join(artifacts, 'record-1024.png') });
    await narrow.close();
  });

  it('shows the conflict view of two change files that disagree: every value, the winner by load order, reorder, save the merge', async () => {
    const GLOBAL = hex(0x3114f9a5);
    await go(`/f/${FILE}/conflicts`);
    await page.getByRole('button', { name: '+ a.yaml' }).click();
    await page.waitForURL(/conflicts\?src=a\.yaml$/);
    await page.getByRole('button', { name: '+ b.yaml' }).click();
    await page.waitForURL(/conflicts\?src=a\.yaml&src=b\.yaml$/);
    // the URL changes before the view is rendered again: wait for the table with both sources
    await page.locator('table.conflicts-table th', { hasText: '2. b.yaml' }).waitFor();
    const row = page.locator('table.conflicts-table tr', { hasText: 'FxGlobalProps/FxGlobalProps' });
    await row.waitFor();
    const cells = async () => row.locator('td').allTextContents();
    // Record, Field, base, 1. a.yaml, 2. b.yaml, merged, status
    expect(await cells()).toEqual(['FxGlobalProps/FxGlobalProps', GLOBAL, '6000', '100', '200', '200', 'conflict']);
    expect(await row.locator('td.win').textContent()).toBe('200');
    expect(await row.locator('td.lost').textContent()).toBe('100');
    expect(await row.getAttribute('class')).toContain('status-conflict');
    // fields one file changes alone are overrides; the field both set to 0.25 is an agreement
    expect(await page.locator('table.conflicts-table tr', { hasText: 'ClientFX.Sprite/1' }).locator('td').allTextContents()).toEqual(['ClientFX.Sprite/1', 'EndTime', '0.084', '—', '9', '9', 'override']);
    expect(await page.locator('table.conflicts-table tr', { hasText: 'StartTime' }).locator('td.merged').textContent()).toBe('0.25');
    expect(await page.locator('.conflict-summary').textContent()).toContain('1 conflict');
    await shot('conflicts-1440');
    // conflicts only
    await page.getByLabel('conflicts only').check();
    await page.waitForURL(/only=conflicts/);
    await expect.poll(() => page.locator('table.conflicts-table tbody tr').count()).toBe(1);
    await page.getByLabel('conflicts only').uncheck();
    await expect.poll(() => page.locator('table.conflicts-table tbody tr').count()).toBe(4);
    // b loaded first: a wins now
    await page.getByRole('button', { name: 'load b.yaml earlier' }).click();
    await page.waitForURL(/conflicts\?src=b\.yaml&src=a\.yaml$/);
    await page.locator('table.conflicts-table th', { hasText: '2. a.yaml' }).waitFor();
    await row.locator('td.win', { hasText: '100' }).waitFor();
    expect(await cells()).toEqual(['FxGlobalProps/FxGlobalProps', GLOBAL, '6000', '200', '100', '100', 'conflict']);
    // the merge, saved as a new file, holds what the view says
    await page.getByLabel('merged file name').fill('merged.fxp');
    await page.getByRole('button', { name: 'Save merged database' }).click();
    await page.locator('.save-result a', { hasText: 'merged.fxp' }).waitFor();
    const merged = Database.open(new Uint8Array(readFileSync(join(dir, 'merged.fxp'))));
    expect(merged.getRecord('FxGlobalProps', 'FxGlobalProps').getInt(0x3114f9a5)).toBe(100);
    expect(merged.getRecord('ClientFX.Sound', '13').getString('KeyName')).toBe('from a');
    expect(merged.getRecord('ClientFX.Sound', '13').getFloat('StartTime')).toBe(Math.fround(0.25));
    expect(merged.getRecord('ClientFX.Sprite', '1').getFloat('EndTime')).toBe(9);
    expect(errors).toEqual([]);
  });

  it('walks from a search to an edited, saved value with the keyboard only', async () => {
    const GLOBAL = hex(0x3114f9a5);
    await go(`/f/${FILE}`);
    await page.locator('.page.overview').waitFor();
    // / focuses the search box; a number finds the field that holds it
    await page.keyboard.press('/');
    await page.keyboard.type('6000');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=6000$/);
    await page.locator('.search .hits a').first().waitFor();
    // ↓ from the box into the hits, ↓ again until the FxGlobalProps hit has the focus, Enter opens it
    await page.locator('input.search').focus();
    let focused = '';
    for (let i = 0; i < 20 && !focused.includes('FxGlobalProps'); i++) {
      await page.keyboard.press('ArrowDown');
      focused = await page.evaluate(() => (document.activeElement?.closest('li')?.textContent ?? ''));
    }
    expect(focused).toContain('FxGlobalProps');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/FxGlobalProps/r/FxGlobalProps\\?field=${GLOBAL}$`));
    await page.locator(`.field.highlight[data-field="${GLOBAL}"]`).waitFor();
    // e: edit mode; the highlighted field's editor has the focus, its text selected
    await page.keyboard.press('e');
    await page.locator(`.field.highlight[data-field="${GLOBAL}"] input.editor`).waitFor();
    await page.waitForFunction((f) => document.activeElement?.closest('.field')?.getAttribute('data-field') === f, GLOBAL);
    await page.keyboard.type('7000');
    await page.keyboard.press('Enter');
    await page.locator(`.field.staged[data-field="${GLOBAL}"]`).waitFor();
    // Ctrl+S: the staged edits, the file name focused; a new name, Enter saves
    await page.keyboard.press('Control+s');
    await page.waitForURL(/\/edits$/);
    await page.waitForFunction(() => document.activeElement?.classList.contains('save-name') === true);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('walked.fxp');
    await page.keyboard.press('Enter');
    await page.locator('.save-result a', { hasText: 'walked.fxp' }).waitFor();
    const saved = Database.open(new Uint8Array(readFileSync(join(dir, 'walked.fxp'))));
    expect(saved.getRecord('FxGlobalProps', 'FxGlobalProps').getInt(0x3114f9a5)).toBe(7000);
    expect(errors).toEqual([]);
  });
});
