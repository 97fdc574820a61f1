/**
 * End to end in headless Chromium: the Streaming page of a world database — the tab, a simulated visit with its
 * bundle table, budget bar and queue-depth chart, and a what-if change through the URL.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGadb } from '../../src/formats/gadb/write.ts';
import { generateWorld } from '../../src/gamedb/generate/world/index.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { firstPage, launchChromium, type Browser } from './browser.ts';

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));

describe('the Streaming page in headless Chromium', () => {
  let wb: Workbench;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    const dir = mkdtempSync(join(tmpdir(), 'scry-e2e-streaming-'));
    writeFileSync(join(dir, 'world.gamedb'), writeGadb(generateWorld({ seed: 1 }).gadb));
    wb = await startWorkbench({ files: [{ path: join(dir, 'world.gamedb'), origin: 'argument' }], port: 0, sampleOutDir: join(dir, 'out') });
    browser = await launchChromium();
    page = await firstPage(browser, errors);
  });

  afterAll(async () => {
    await browser?.close();
    await wb?.close();
  });

  it('opens the Streaming tab and shows the visit: bundles, budget bar, queue depths, timeline', async () => {
    await page.goto(`${wb.url}f/world.gamedb`);
    await page.getByRole('link', { name: 'Streaming' }).click();
    await page.waitForURL(/\/f\/world\.gamedb\/streaming$/);
    await page.locator('table.streaming-bundles td', { hasText: 'troll_poison' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('svg[aria-label^="gear budget"]').count()).toBe(1);
    expect(await page.locator('svg[aria-label="stage queue depths over time"] path').count()).toBe(4);
    expect(await page.locator('table.streaming-events tr').count()).toBeGreaterThan(10);
    await page.screenshot({ path: join(artifacts, 'streaming.png') });
    expect(errors).toEqual([]);
  });

  it('reruns a what-if from the form: another region, the URL keeps it', async () => {
    await page.locator('.streaming-controls select').selectOption('World_MinasIthil_Day');
    await page.locator('.streaming-controls input[type="checkbox"]').last().uncheck();
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.waitForURL(/world=World_MinasIthil_Day/);
    await page.locator('table.streaming-bundles td', { hasText: 'nazgul_base' }).waitFor({ timeout: 60_000 });
    expect(page.url()).toMatch(/layers=0/);
    expect(await page.locator('table.streaming-bundles tr td:nth-child(2)', { hasText: 'layer' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
