import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8181);
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

// End-to-end journeys drive the built app (served by the real server on an embedded, throw-away
// data directory) in Debian's Chromium, like a user would.
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Two journeys at a time by default (E2E_WORKERS=1 for one). Each is its own fresh user and wallet.
  // What a page at rest costs Chromium here swings with the machine: ~1 s of CPU every 15 s for a
  // signed-in dashboard on most days (0.9 s on 2026-11-28 at 23:20, Chromium 156), 6.3 s on a slow
  // afternoon the same day, when three workers kept both cores full, seven journeys ran past their
  // 60 s and two passed all 34 in 9.7 min. On a usual day three take 2.8 min and two 3.1: two cost
  // little there and hold on a slow one.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    {
      name: 'journeys',
      testIgnore: /screenshots\.spec\.ts/,
      // Tests of one file too: the longest file (bots) would otherwise keep one worker to the end.
      fullyParallel: true,
      // Journeys check what the app does, not its animations: as a user who asks for reduced motion,
      // whom the app serves without any (styles.css). On this GPU-less machine the animations and
      // colour fades kept Chromium repainting, most of the journeys' CPU. Screenshots keep them.
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' },
    },
    { name: 'screenshots', testMatch: /screenshots\.spec\.ts/, use: { ...devices['Desktop Chrome'] } },
  ],
  webServer: {
    command: 'rm -rf .data/e2e && node --enable-source-maps apps/server/dist/server.mjs',
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: '.data/e2e',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_MAX: '1000',
      SOLANA_NETWORK: 'localnet',
      // The hostile-bot journey waits for this limit: short, so it does not wait 20 s; long enough for
      // the year-long Python journey's ~3 s of sandbox CPU on a busy machine.
      BACKTEST_TIME_LIMIT_MS: '6000',
      // The alerts journey's webhook receiver listens on loopback: allowed for this server only.
      ALERT_WEBHOOK_ALLOW_PRIVATE: 'on',
      ALERTS_INTERVAL_MS: '500',
    },
  },
});
