import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ first: tests that spawn bin/scry.js run the built CLI.
    globalSetup: ['test/support/build-cli.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
