/**
 * The workbench a modder keeps open all day (issue 17), in headless Chromium: names loaded from a list and found
 * by the name finder, a deep link followed from another site, numeric search, tables like xEdit's, the conflict
 * view, and a keyboard-only walk from a search to an edited, saved value. Screenshots of the main pages at 1440
 * and 1024 px go to `test/e2e/artifacts/` (ignored by git).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { p919 } from '../../src/hash/p919.ts';
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
  const errors: string[] = [];
  const go = (path: string) => page.goto(wb.url + path.replace(/^\//, ''));
  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'scry-e2e-modder-'));
    copyFileSync(fixturePath('gadb', FILE), join(dir, FILE));
    // a community list: ModelColor as a plain name, ModelScale as a checked pair
    writeFileSync(join(dir, 'community.txt'), `ModelColor\n${hex(p919('ModelScale'))}\tModelScale\n`);
    wb = await startWorkbench({
      files: [
        { path: join(dir, FILE), origin: 'argument' },
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
});
