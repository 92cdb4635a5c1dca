// UI smoke test against the installed .vsix: drive code-server's workbench like a person (playwright-core + chromium).
const { chromium } = require("playwright-core");
const URL_ = process.env.CS_URL, WS = process.env.WS_FILE, SHOT = process.env.SHOT || "ui-smoke.png";
// Screenshots of the scenario features, for the README (e2e.sh points this at docs/images).
const IMAGES = process.env.IMAGES_DIR || require("node:path").dirname(SHOT);
const t0 = Date.now();
const lap = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
// The capability map's screenshots (docs/images/ in the README come from here).
const MAP_SHOTS = process.env.MAP_SHOTS || require("node:path").dirname(SHOT);
(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  let passed = 0, failed = 0;
  const check = (c, m) => { console.log((c ? "ok " : "not ok ") + m); c ? passed++ : failed++; };
  const palette = async (text) => {
    await page.keyboard.press("F1");
    await page.waitForSelector(".quick-input-widget input", { state: "visible" });
    await page.keyboard.type(text);
    await page.waitForSelector(".quick-input-list .monaco-list-row", { timeout: 60000 });
    await page.keyboard.press("Enter");
  };
  try {
    await page.goto(`${URL_}?workspace=${encodeURIComponent(WS)}`, { waitUntil: "domcontentloaded", timeout: 120000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 90000 });
    await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: 60000 });
    lap("workbench loaded");
    await page.keyboard.press("Control+P");
    await page.waitForSelector(".quick-input-widget input", { state: "visible" });
    await page.keyboard.type("a/agent-sandbox.jsonc");
    await page.waitForSelector(".quick-input-list .monaco-list-row", { timeout: 60000 });
    await page.keyboard.press("Enter");
    await page.waitForSelector(".editor-instance .view-lines", { timeout: 60000 });
    lap("file opened");
    await page.waitForSelector(".squiggly-warning, .squiggly-error", { timeout: 60000 });
    lap("squiggles shown");
    await page.keyboard.press("Control+Shift+M");
    await page.locator(".markers-panel .monaco-list-row").first().waitFor({ timeout: 60000 });
    const problems = await page.locator(".markers-panel").innerText();
    check(problems.includes("never matches") && problems.includes("pattern-never-matches"), "Problems panel lists the engine's finding with its code");
    const lens = page.locator(".contentWidgets .codelens-decoration, .codelens-decoration").first();
    await lens.waitFor({ timeout: 60000 });
    check((await page.locator(".codelens-decoration").allInnerTexts()).join(" ").includes("Preview prompt"), "code lens above the agent");
    // A leaf token of the line (Monaco merges neighbouring tokens of the same colour, so match by content).
    const token = page.locator(".view-line span span", { hasText: "/workspace/secrets" }).first();
    await token.waitFor({ timeout: 60000 });
    const box = await token.boundingBox();
    await page.mouse.move(box.x + box.width / 2 - 4, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator(".monaco-hover:visible", { hasText: "Pattern" }).first().waitFor({ timeout: 60000 });
    check(true, "hover on a path pattern comes from the language server");
    await page.mouse.move(5, 5);
    await page.keyboard.press("Escape");
    await page.locator(".editor-instance .view-lines").first().click(); // the config editor is the active one
    await palette("Agent Sandbox: Preview Effective Prompt");
    await page.locator(".quick-input-title", { hasText: "Agent" }).first().waitFor({ timeout: 60000 }); // agent picker
    await page.keyboard.type("main");
    await page.keyboard.press("Enter");
    await page.locator(".quick-input-title", { hasText: "Role" }).first().waitFor({ timeout: 60000 }); // role picker
    await page.keyboard.type("guest");
    await page.keyboard.press("Enter");
    await page.locator(".tab", { hasText: "Prompt preview" }).first().waitFor({ timeout: 60000 });
    // Rendered: the heading is an h1 in the markdown preview's webview (its content sits in an inner frame), not
    // a line of markdown text in an editor.
    await page.frameLocator("iframe.webview").last().frameLocator("#active-frame").locator("h1", { hasText: "Prompt preview" }).first().waitFor({ timeout: 60000 });
    check((await page.locator(".view-line", { hasText: "# Prompt preview" }).count()) === 0, "Preview Effective Prompt opens the preview rendered beside the config");
    await page.waitForTimeout(600);
    await page.screenshot({ path: SHOT });
    lap("prompt preview");

    // A dry-run scenario: each step's outcome inline (a code lens on the step), from the language server's run.
    await palette("View: Close All Editors");
    await page.keyboard.press("Control+P");
    await page.waitForSelector(".quick-input-widget input", { state: "visible" });
    await page.keyboard.type("research.dryrun.jsonc");
    // Quick Open lists recently opened files while it searches: wait for the scenario's own row.
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "research.dryrun.jsonc" }).first().waitFor({ timeout: 60000 });
    await page.keyboard.press("Enter");
    await page.locator(".tab.active", { hasText: "research.dryrun.jsonc" }).first().waitFor({ timeout: 60000 });
    await page.locator(".codelens-decoration", { hasText: "✖ permission-denied by rule 0" }).first().waitFor({ timeout: 60000 });
    const lenses = (await page.locator(".codelens-decoration").allInnerTexts()).join(" | ");
    check(lenses.includes("✔ ok") && lenses.includes("· expected ok"), "each scenario step shows its outcome inline");
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${IMAGES}/scenario-outcomes.png` });
    lap("inline outcomes");

    // Test Explorer: run every scenario; the failing step is marked, with its expected and actual outcome.
    await page.locator('.activitybar .action-label[aria-label^="Testing"]').first().click();
    await page.locator(".test-explorer .monaco-list-row", { hasText: "research.dryrun.jsonc" }).first().waitFor({ timeout: 60000 });
    await palette("Test: Run All Tests");
    await page.locator(".test-explorer .codicon-testing-failed-icon").first().waitFor({ timeout: 60000 });
    lap("scenarios ran");
    // Expand the scenario to its steps, when the view has not already.
    const step = page.locator(".test-explorer .monaco-list-row", { hasText: "read_file /workspace/secrets/key.txt" }).first();
    if (!(await step.isVisible())) {
      await page.locator(".test-explorer .monaco-list-row", { hasText: "research.dryrun.jsonc" }).first().click();
      await page.keyboard.press("ArrowRight");
    }
    await step.waitFor({ timeout: 60000 });
    check((await step.locator(".codicon-testing-failed-icon").count()) === 1, "Test Explorer marks the failing step");
    // The failure's peek in the editor (opened by itself for a failure in a visible editor): expected and actual outcome.
    const peek = page.locator(".test-output-peek").first();
    if (!(await peek.isVisible())) await step.dblclick();
    await peek.waitFor({ timeout: 60000 });
    await page.waitForTimeout(1500);
    const peekText = await peek.innerText();
    check(/Expected ok, got permission-denied/.test(peekText), "the failing step's message is shown in the editor");
    await page.screenshot({ path: `${IMAGES}/test-explorer.png` });
    lap("test explorer done");
    await palette("View: Close All Editors");
    await capabilityMap(page, check);
    lap("capability map done");

    // createDeepAgent / create_deep_agent where they are written: squiggles, the Problems panel, the hover on the call.
    await sourceFile(page, check, palette, {
      file: "agent.ts", call: "createDeepAgent", codes: ["subagent-escalation", "path-not-absolute"], hover: "writer: 7 of 8 tools visible", shot: `${IMAGES}/source-typescript.png`,
    });
    lap("TypeScript file");
    await sourceFile(page, check, palette, {
      file: "agent.py", call: "create_deep_agent", codes: ["tools-not-list", "path-not-absolute", "middleware-drops-permissions"], hover: "main: 8 of 9 tools visible", shot: `${IMAGES}/source-python.png`,
    });
    lap("done");
  } catch (e) {
    check(false, e.message.split("\n")[0]);
    console.log(`testing view: ${await page.locator(".test-explorer").first().innerText({ timeout: 1000 }).catch(() => "(not shown)")}`);
    await page.screenshot({ path: SHOT.replace(/\.png$/, "-error.png") }).catch(() => {});
  }
  await browser.close();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();

/**
 * The capability map: the Explorer's badges on the sample files of folder a (read from the page as VS Code draws
 * them, a pseudo-element's content) and the Capability Map view beside them; a screenshot of each.
 */
async function capabilityMap(page, check) {
  await page.keyboard.press("Control+Shift+E");
  const explorerRow = (name) => page.locator(".explorer-folders-view .monaco-list-row").filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${name}$`) }) }).first();
  const expand = async (name) => {
    const row = explorerRow(name);
    await row.waitFor({ timeout: 60000 });
    if ((await row.getAttribute("aria-expanded")) === "false") await row.click();
  };
  await expand("a");
  await expand("sample");
  await expand("secrets");
  const badgeOf = (name) =>
    page.evaluate((n) => {
      for (const row of document.querySelectorAll(".explorer-folders-view .monaco-list-row")) {
        if (row.querySelector(".label-name")?.textContent !== n) continue;
        for (const el of row.querySelectorAll("*")) {
          const content = getComputedStyle(el, "::after").content;
          if (content && content !== "none" && content !== "normal") return content.replace(/^"|"$/g, "");
        }
      }
      return null;
    }, name);
  let badges = {};
  for (let i = 0; i < 300; i++) {
    badges = { readme: await badgeOf("README.md"), key: await badgeOf("key.txt"), secrets: await badgeOf("secrets") };
    if (badges.readme === "RW" && badges.key === "✕") break;
    await page.waitForTimeout(200);
  }
  check(badges.readme === "RW" && badges.key === "✕" && badges.secrets === "✕", `the Explorer shows the capability map's badges (${JSON.stringify(badges)})`);
  const pane = page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Capability Map" }) }).first();
  await pane.waitFor({ timeout: 60000 });
  const header = pane.locator(".pane-header").first();
  if ((await header.getAttribute("aria-expanded")) === "false") await header.click();
  const mapRow = (name) => pane.locator(".monaco-list-row", { hasText: name }).first();
  await mapRow("README.md").waitFor({ timeout: 60000 });
  const secrets = mapRow("secrets");
  if ((await secrets.getAttribute("aria-expanded")) === "false") await secrets.click();
  await mapRow("key.txt").waitFor({ timeout: 60000 });
  const text = await pane.innerText();
  check(text.includes("read allow · write allow") && text.includes("read deny · write deny"), "the Capability Map view lists both decisions per file");
  // A wider side bar, so that the view's descriptions fit: drag the sash on its right edge.
  const bar = await page.locator(".part.sidebar").boundingBox();
  await page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
  await page.mouse.down();
  await page.mouse.move(bar.x + bar.width + 140, bar.y + bar.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.mouse.move(5, 5);
  await page.waitForTimeout(400);
  await page.locator(".part.sidebar").screenshot({ path: `${MAP_SHOTS}/capability-map-explorer.png` });
  await pane.screenshot({ path: `${MAP_SHOTS}/capability-map-view.png` });
}

/**
 * A source file with mistakes, opened like a person would: its squiggles, its findings in the Problems panel (filtered
 * to the file), the hover on the call with the effective tools of its agents; a screenshot of all three.
 */
async function sourceFile(page, check, palette, { file, call, codes, hover, shot }) {
  await palette("View: Close All Editors");
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(`src/${file}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: file }).first().waitFor({ timeout: 60000 });
  await page.keyboard.press("Enter");
  await page.locator(".tab.active", { hasText: file }).first().waitFor({ timeout: 60000 });
  await page.waitForSelector(".editor-instance .squiggly-warning, .editor-instance .squiggly-error", { timeout: 60000 });
  await palette("Problems: Focus on Problems View");
  const filter = page.locator(".markers-panel-container .monaco-inputbox input, .viewpane-filter input").first();
  await filter.waitFor({ timeout: 60000 });
  await filter.fill(file);
  const panel = page.locator(".markers-panel");
  let problems = "";
  for (let i = 0; i < 300 && !codes.every((c) => problems.includes(c)); i++) {
    await page.waitForTimeout(200);
    problems = await panel.innerText();
  }
  check(codes.every((c) => problems.includes(c)), `the Problems panel lists ${file}'s findings (${codes.join(", ")})`);
  // Back in the editor: hover the name of the call.
  await page.locator(".editor-instance .view-lines").first().click();
  // The name on the line that calls it (`name(`), measured as a text range: the theme may split or merge its tokens.
  const box = await page.evaluate((name) => {
    const line = [...document.querySelectorAll(".editor-instance .view-line")].find((l) => l.textContent.includes(`${name}(`));
    const walker = line && document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker?.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent.indexOf(name);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + name.length);
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }
    return null;
  }, call);
  if (!box) throw new Error(`no call of ${call} on screen`);
  await page.mouse.move(box.x + box.width / 2 - 4, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const shown = page.locator(".monaco-hover:visible", { hasText: "the agent this call builds" }).first();
  await shown.waitFor({ timeout: 60000 });
  check((await shown.innerText()).includes(hover), `the hover on ${call} shows the effective tools (${hover})`);
  await page.waitForTimeout(600);
  await page.screenshot({ path: shot });
  await page.mouse.move(5, 5);
  await page.keyboard.press("Escape");
  await filter.fill("");
  // The keyboard back to the editor: keys typed next (the Command Palette's F1) must not land in the filter box.
  await page.locator(".editor-instance .view-lines").first().click();
}
