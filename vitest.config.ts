import { defineConfig } from 'vitest/config';

// Two projects: `npm run test:unit` is the everyday loop (pure logic, seconds); integration
// tests use real SQLite files, real HTTP and real child processes. `npm test` runs both.
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // electron-store imports electron itself: processed by Vite, it gets vi.mock('electron')
    // instead of the real package (which would try to download Electron's binary).
    server: { deps: { inline: ['electron-store'] } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.{ts,tsx}'],
          // built once before the browser tests, never by several test files at a time
          globalSetup: ['test/support/build-renderer.ts'],
        },
      },
    ],
  },
});
