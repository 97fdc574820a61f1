/**
 * End to end in headless Chromium: the Run tab of a layer script — the headless run with its timeline and trace,
 * firing a registered event from the list (the run repeats with it), and a run against a chosen GameDB.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { writeGadb } from '../../src/formats/gadb/write.ts';
import { writeScri } from '../../src/formats/scri/scri.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { fixturePath } from '../support/fixtures.ts';
import { buildScriptGadb, fortAssaultCategories } from '../engine/support/script-db.ts';
import { firstPage, launchChromium, type Browser } from './browser.ts';

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));

describe('workbench Run tab (Chromium)', () => {
  let wb: Workbench;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    const dir = mkdtempSync(join(tmpdir(), 'scry-e2e-run-'));
    writeFileSync(join(dir, 'fagameplay.scripts'), writeScri({ version: 1, flag: 1, body: new Uint8Array(readFileSync(fixturePath('scripts', 'island_fortassault_fagameplay.closed.lua'))), trailing: new Uint8Array(0) }));
    writeFileSync(join(dir, 'fortassault.gamedb'), writeGadb(buildScriptGadb(fortAssaultCategories())));
    wb = await startWorkbench({ files: [{ path: join(dir, 'fagameplay.scripts'), origin: 'argument' }, { path: join(dir, 'fortassault.gamedb'), origin: 'argument' }], port: 0, sampleOutDir: join(dir, 'out') });
    browser = await launchChromium();
    page = await firstPage(browser, errors);
  });

  afterAll(async () => {
    await browser?.close();
    await wb?.close();
  });

  it('runs the layer, shows the timeline and trace, and fires a registered event from the list', async () => {
    await page.goto(`${wb.url}f/fagameplay.scripts`);
    await page.getByRole('link', { name: 'Run' }).click();
    await page.waitForURL(/\/f\/fagameplay\.scripts\/run$/);
    await page.locator('table.run-trace td', { hasText: '_ammo_large_timed_SC_Script_1b86e977' }).first().waitFor({ timeout: 60_000 });
    expect(await page.locator('svg[aria-label="trace timeline over run time"] rect').count()).toBeGreaterThan(5);
    // fire the item's OnCollect from the registrations list: the run is repeated with it, the handler dispatched
    await page.getByRole('button', { name: 'fire at slider' }).first().click();
    await page.waitForURL(/fire=InventoryItemUI\.OnCollect/);
    await page.locator('table.run-trace td', { hasText: '_ammo_large_timed_SO_Script_3dc53bc3.Collected' }).first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(artifacts, 'run.png') });
    expect(errors).toEqual([]);
  });

  it('runs against the GameDB chosen in the form: the DBDOGStateType lookup resolves', async () => {
    await page.locator('.run-controls select[name="db"]').selectOption({ label: 'fortassault.gamedb' });
    await page.locator('.run-controls textarea[name="start"]').fill('_assaultarcherdrumtowertopfull_scWD_Script_696a2498@1');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/start=/);
    await page.locator('table.run-trace td', { hasText: 'DynamicObjectGroup/StateTypes:Hidden' }).first().waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  });
});
