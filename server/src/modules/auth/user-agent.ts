import { UAParser } from 'ua-parser-js'

/** Login record fields from the user agent (SPEC §3 Login record: loginBrowser, loginDevice). */
export function describeUserAgent(ua: string | undefined): { browser: string; device: string } {
  if (!ua) return { browser: 'Unknown', device: 'Unknown' }
  const r = UAParser(ua)
  const browser = [r.browser.name, r.browser.major].filter(Boolean).join(' ') || 'Unknown'
  const os = [r.os.name, r.os.version].filter(Boolean).join(' ')
  const hw = [r.device.vendor, r.device.model].filter(Boolean).join(' ')
  const type = r.device.type ?? 'desktop'
  const device = [type, hw, os].filter(Boolean).join(' · ') || 'Unknown'
  return { browser: browser.slice(0, 100), device: device.slice(0, 200) }
}
