/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser). `.ci/run` installs the `chromium`
 * package; locally: `apt-get install chromium`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env['SCRY_CHROMIUM'] ?? '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile folder (playwright passes it as --user-data-dir), removed on close. */
export async function launchChromium(viewport = { width: 1440, height: 900 }): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's chromium package (apt-get install -y chromium), or set SCRY_CHROMIUM`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'scry-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The context's first page, with every page error and console error appended to `errors`. */
export async function firstPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return page;
}
