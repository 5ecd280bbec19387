// Issue 24: a slow phone's first visit — 150 ms round trip, 1.6 Mbit/s down (750 kbit/s up), the CPU 4×
// slower — in a headless Chromium (Chrome DevTools Protocol network and CPU emulation, an empty cache).
// Prints when the page's main control is visible, from the start of the navigation: the share page's buy
// button (target ≤ 0.5 s), `/login`'s submit button and the workplace's income figures (≤ 0.8 s). The
// median of BENCH_THROTTLED_RUNS (3) first visits each. `npm run bench` runs it; alone:
//   node bench/throttled.mjs http://127.0.0.1:3000 <share code> <admin user> <password>
import { chromium } from '@playwright/test'
import { chromiumPath } from '../scripts/chromium-path.mjs'
import { loginCookies } from './js-budget.mjs'

const PROFILE = { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0, cpuSlowdown: 4 }
const RUNS = Number(process.env.BENCH_THROTTLED_RUNS ?? 3)

/**
 * In the page, from its first script: the first animation frame at which `selector` is laid out and
 * shown (its stylesheets applied), on the page's clock — which starts with the navigation.
 */
function watchVisible(selector) {
  const seen = () => {
    const el = document.querySelector(selector)
    if (!el) return false
    const box = el.getBoundingClientRect()
    const style = getComputedStyle(el)
    // Every stylesheet the page asked for has arrived (before that the browser paints nothing).
    const cssPending = [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => !l.sheet)
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !cssPending
  }
  const tick = () => {
    if (seen()) window.__psVisibleAt = performance.now()
    else requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
}

async function visibleAfter(browser, url, selector, cookies) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  try {
    if (cookies) await context.addCookies(cookies)
    await context.addInitScript(watchVisible, selector)
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: PROFILE.latency, downloadThroughput: PROFILE.downloadThroughput, uploadThroughput: PROFILE.uploadThroughput })
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpuSlowdown })
    await page.goto(url, { waitUntil: 'commit' })
    await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 })
    await page.waitForFunction(() => window.__psVisibleAt !== undefined, null, { timeout: 30_000 })
    // Not before the first contentful paint: the frame callback may run just before the paint it shows.
    return await page.evaluate(() => Math.max(window.__psVisibleAt, performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0))
  } finally {
    await context.close()
  }
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]

/** Milliseconds until visible, the median of RUNS first visits, per page with its target. */
export async function throttledFirstVisits({ base, unicode, user, password }) {
  const browser = await chromium.launch({ executablePath: chromiumPath() })
  try {
    const cookies = await loginCookies(browser, base, user, password)
    const pages = [
      { name: '/share/{unicode}: buy button', url: `${base}/share/${unicode}`, selector: 'form:has(fieldset.ps-methods) button[type="submit"]', target: 500 },
      { name: '/login: log-in button', url: `${base}/login`, selector: '#login-form button[type="submit"]', target: 800 },
      { name: '/dashboard/workplace: income figures', url: `${base}/dashboard/workplace`, selector: '#income-figures', target: 800, cookies },
    ]
    const out = []
    for (const p of pages) {
      const times = []
      for (let i = 0; i < RUNS; i++) times.push(await visibleAfter(browser, p.url, p.selector, p.cookies))
      out.push({ name: p.name, ms: median(times), runs: times, target: p.target })
    }
    return out
  } finally {
    await browser.close()
  }
}

/** Lines for `npm run bench`. */
export async function throttledLines(options) {
  const rows = await throttledFirstVisits(options)
  return [
    `Slow phone, first visit (issue 24: ${PROFILE.latency} ms RTT, 1.6 Mbit/s, ${PROFILE.cpuSlowdown}× CPU slowdown, headless Chromium; median of ${RUNS}):`,
    ...rows.map((r) => `  ${r.name.padEnd(40)} ${(r.ms / 1000).toFixed(2)} s (runs ${r.runs.map((t) => (t / 1000).toFixed(2)).join(', ')}; target ≤ ${(r.target / 1000).toFixed(1)} s: ${r.ms <= r.target ? 'ok' : 'OVER'})`),
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = 'http://127.0.0.1:3000', unicode = '', user = 'admin', password = process.env.ADMIN_PASSWORD ?? ''] = process.argv.slice(2)
  console.log((await throttledLines({ base, unicode, user, password })).join('\n'))
}
