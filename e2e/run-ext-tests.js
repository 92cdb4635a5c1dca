// Runs the mocha suite inside code-server's Node extension host (what @vscode/test-electron does in desktop VS Code)
// and turns its result into this process's exit code. See ../../shared/vscode-e2e.md §4 for the `payload` trick.
const { chromium } = require("playwright-core");
const BASE = new URL(process.env.CS_URL);
const remote = (p) => `vscode-remote://${BASE.host}${p}`; // code-server's remote authority is the page's host:port
const payload = JSON.stringify([
  ["extensionDevelopmentPath", remote(process.env.EXT_DEV_PATH)],
  ["extensionTestsPath", remote(process.env.EXT_TESTS_PATH)],
  ["skipWelcome", "true"],
  ["skipReleaseNotes", "true"],
]);
const url = `${BASE.href}?workspace=${encodeURIComponent(process.env.WS_FILE)}&payload=${encodeURIComponent(payload)}`;
(async () => {
  const t0 = Date.now();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage();
  let done;
  const finished = new Promise((r) => (done = r));
  await page.exposeFunction("codeAutomationExit", (code) => done(code)); // called when run() settles
  await page.exposeFunction("codeAutomationLog", (type, args) => console.log(...args)); // the extension host's console
  if (process.env.PAGE_LOG) page.on("console", (m) => console.log("[page]", m.text()));
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: 120000 });
  const code = await Promise.race([finished, new Promise((r) => setTimeout(() => r("timeout"), +(process.env.TEST_TIMEOUT_MS || 600000)))]);
  console.log(`extension tests finished with ${code} after ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  await browser.close();
  process.exit(code === 0 ? 0 : 1);
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
