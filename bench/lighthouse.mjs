// Issue 24: Lighthouse (mobile, simulated throttling — its defaults) against `/`, a share page, `/login`
// and the seller workplace (logged in: the session cookie is sent with every request), printing the
// performance and accessibility scores (issue 23: accessibility stays 100), LCP, TBT, the script requests asked for before the page hydrated (the
// `ps-hydrated` user timing app/root.tsx marks) and the JavaScript transferred, beside the targets.
// Debian's Chromium (scripts/chromium-path.mjs) through chrome-launcher; `npm run bench` runs it against
// the console it started; alone:
//   node bench/lighthouse.mjs http://127.0.0.1:3000 <share unicode> [seller user] [password]
import { chromium } from '@playwright/test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumPath } from '../scripts/chromium-path.mjs'
import { loginCookies } from './js-budget.mjs'

export const LIGHTHOUSE_TARGETS = { score: 90, accessibility: 100, scriptsBeforeHydration: 15 }

/** One page's figures from a Lighthouse result (lhr). */
function figuresOf(lhr) {
  const requests = lhr.audits['network-requests']?.details?.items ?? []
  const timings = lhr.audits['user-timings']?.details?.items ?? []
  const hydrated = timings.find((t) => t.name === 'ps-hydrated')?.startTime ?? Infinity
  const scripts = requests.filter((r) => r.resourceType === 'Script')
  // network-requests times are observed (ms since navigation start), as user timings are.
  const before = scripts.filter((r) => (r.networkRequestTime ?? r.rendererStartTime ?? 0) < hydrated)
  const kb = (list) => list.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024
  const a11y = lhr.categories.accessibility
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    accessibility: Math.round((a11y?.score ?? 0) * 100),
    // The accessibility audits that failed (score 0 or below 1): what to fix when the score is under 100.
    a11yFailed: (a11y?.auditRefs ?? []).filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    scripts: scripts.length,
    // A page without scripts (the share page, `/`) never hydrates: none before.
    scriptsBeforeHydration: scripts.length === 0 ? 0 : hydrated === Infinity ? null : before.length,
    jsKbBeforeHydration: kb(before),
    jsKb: kb(scripts),
  }
}

/**
 * Runs Lighthouse on each page (`runs` times each, the median score's run kept — one run moves by
 * ±5 points on a busy machine). `pages`: [{ name, url, cookies? }] (cookies as Playwright gives them).
 */
export async function lighthousePages(pages, { runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3) } = {}) {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] })
  try {
    const out = []
    for (const page of pages) {
      // A session cookie goes into the browser's own jar, kept from then on (Lighthouse clears storage
      // but not cookies; a Cookie header in `extraHeaders` does not reach the navigations): the pages
      // that need none come first.
      if (page.cookies) {
        const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`)
        await cdp.contexts()[0].addCookies(page.cookies)
        await cdp.close()
      }
      const results = []
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(page.url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] }, undefined)
        if (!result) throw new Error(`lighthouse gave nothing for ${page.url}`)
        const final = result.lhr.finalDisplayedUrl ?? result.lhr.finalUrl
        if (new URL(final).pathname !== new URL(page.url).pathname) throw new Error(`${page.url} ended at ${final} (not logged in?)`)
        results.push(figuresOf(result.lhr))
      }
      results.sort((a, b) => a.score - b.score)
      out.push({ name: page.name, ...results[Math.floor(results.length / 2)], scores: results.map((r) => r.score) })
    }
    return out
  } finally {
    await chrome.kill()
  }
}

/** The four pages of the issue: `/`, a share page, `/login`, and the workplace logged in as `user`. */
export async function lighthouseLines({ base, unicode, user, password }) {
  const browser = await chromium.launch({ executablePath: chromiumPath() })
  let cookies
  try {
    cookies = await loginCookies(browser, base, user, password)
  } finally {
    await browser.close()
  }
  const rows = await lighthousePages([
    { name: '/', url: `${base}/` },
    { name: '/share/{unicode}', url: `${base}/share/${unicode}` },
    { name: '/login', url: `${base}/login` },
    { name: '/dashboard/workplace', url: `${base}/dashboard/workplace`, cookies },
  ])
  const t = LIGHTHOUSE_TARGETS
  const lines = [
    '| page | performance | runs | accessibility | LCP ms | TBT ms | scripts before hydration | their KB transferred (headers too) | scripts / KB in all | targets |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---|',
  ]
  for (const r of rows) {
    // The gzip budget (≤ 170 KB) is bench/js-budget.mjs's, counted without the HTTP headers.
    const ok = r.score >= t.score && r.scriptsBeforeHydration !== null && r.scriptsBeforeHydration <= t.scriptsBeforeHydration
    const a11yOk = r.accessibility >= t.accessibility
    lines.push(
      `| ${r.name} | ${r.score} | ${r.scores.join(' ')} | ${r.accessibility}${a11yOk ? '' : ` (${r.a11yFailed.join(', ')})`} | ${r.lcpMs.toFixed(0)} | ${r.tbtMs.toFixed(0)} | ${r.scriptsBeforeHydration ?? '?'} | ${r.jsKbBeforeHydration.toFixed(1)} | ${r.scripts} / ${r.jsKb.toFixed(1)} | ≥ ${t.score}, ≤ ${t.scriptsBeforeHydration} scripts: ${ok ? 'ok' : 'OVER'}; accessibility ${t.accessibility}: ${a11yOk ? 'ok' : 'UNDER'} |`,
    )
  }
  return lines
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = 'http://127.0.0.1:3000', unicode, user = 'demo_seller', password = process.env.DEMO_PASSWORD ?? 'Demo@2026'] = process.argv.slice(2)
  if (!unicode) throw new Error('usage: node bench/lighthouse.mjs <console base URL> <share unicode> [user] [password]')
  console.log((await lighthouseLines({ base, unicode, user, password })).join('\n'))
}
