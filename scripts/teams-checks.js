// Checks what Teams will be sent, with Microsoft's own packages:
//   - every golden Adaptive Card parses, validates and renders with the
//     official renderer (npm adaptivecards, under jsdom) without a single
//     warning or error;
//   - the Teams app manifest validates against its schema (npm
//     @microsoft/app-manifest, which ships the schemas: no network).
// Usage: node scripts/teams-checks.js <golden-dir> <filled-manifest.json>
'use strict';
const fs = require('fs');
const path = require('path');
const { JSDOM } = require('jsdom');

const dom = new JSDOM('<!DOCTYPE html><html><body></body></html>');
global.window = dom.window;
global.document = dom.window.document;
global.getComputedStyle = dom.window.getComputedStyle.bind(dom.window);
// The renderer checks elements with instanceof HTMLButtonElement and the
// like: expose jsdom's DOM classes as globals.
for (const k of Object.getOwnPropertyNames(dom.window)) {
  if (/^(HTML|SVG|Node|Element|Text|DocumentFragment|.*Event$)/.test(k) && global[k] === undefined) global[k] = dom.window[k];
}
// jsdom has no innerText, which the renderer sets on text runs.
Object.defineProperty(dom.window.HTMLElement.prototype, 'innerText', {
  get() { return this.textContent; },
  set(v) { this.textContent = v; },
  configurable: true,
});
// Any renderer message on the console is a failure too.
const consoleMessages = [];
for (const level of ['log', 'info', 'warn', 'error']) {
  const orig = console[level].bind(console);
  console[level] = (...args) => {
    if (collecting) consoleMessages.push(`${level}: ${args.map(String).join(' ')}`);
    else orig(...args);
  };
}
let collecting = false;
// The package's lib/ is ES modules without file extensions, which Node
// cannot load; dist/ holds the same renderer as one UMD bundle.
const AC = require('adaptivecards/dist/adaptivecards.js');
// Hosts supply Markdown processing; cew's own TextBlocks hold plain words,
// so a processor that escapes them is what this check needs.
AC.AdaptiveCard.onProcessMarkdown = (text, result) => {
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  result.outputHtml = esc;
  result.didProcess = true;
};
const { AppManifestUtils, TeamsManifestConverter } = require('@microsoft/app-manifest');

function checkCard(file) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const problems = [];
  consoleMessages.length = 0;
  collecting = true;
  const card = new AC.AdaptiveCard();
  const ctx = new AC.SerializationContext();
  card.parse(json, ctx);
  for (let i = 0; i < ctx.eventCount; i++) {
    const e = ctx.getEventAt(i);
    problems.push(`parse: ${e.message}`);
  }
  const results = card.validateProperties();
  for (const e of results.validationEvents) problems.push(`validate: ${e.message}`);
  const el = card.render();
  if (!el) problems.push('render: nothing rendered');
  else {
    document.body.appendChild(el);
    if (!el.textContent || el.textContent.trim() === '') problems.push('render: no text');
  }
  collecting = false;
  for (const m of consoleMessages) problems.push(`console ${m}`);
  return problems;
}

async function main() {
  const [goldenDir, manifestPath] = process.argv.slice(2);
  let failed = 0, passed = 0;
  const files = fs.readdirSync(goldenDir).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error('no cards in ' + goldenDir);
  for (const f of files) {
    const problems = checkCard(path.join(goldenDir, f));
    if (problems.length) {
      failed++;
      console.log(`FAIL card ${f}\n  ${problems.join('\n  ')}`);
    } else {
      passed++;
      console.log(`ok   card ${f}`);
    }
  }
  const manifest = TeamsManifestConverter.jsonToManifest(fs.readFileSync(manifestPath, 'utf8'));
  const errors = await AppManifestUtils.validateAgainstSchema(manifest);
  if (errors.length) {
    failed++;
    console.log(`FAIL manifest ${manifestPath}\n  ${errors.join('\n  ')}`);
  } else {
    passed++;
    console.log(`ok   manifest (schema ${manifest.manifestVersion})`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
