/** DESIGN §2: times are shown in the user's zone, Asia/Shanghai by default (same on server and client). */
export const DISPLAY_TZ = 'Asia/Shanghai'

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(timeZone: string) {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    formatters.set(timeZone, f)
  }
  return f
}

/**
 * The last times formatted: `formatToParts` costs ≈ 10 µs a call (1.9% of a share page render, which shows
 * its share's creation time to every visitor; decision 166). At most 1,000 kept, then forgotten at once.
 */
const formatted = new Map<string, string>()

/** `YYYY-MM-DD HH:mm:ss` in the display zone; '—' for no time. */
export function formatDateTime(iso: string | null | undefined, timeZone = DISPLAY_TZ): string {
  if (!iso) return '—'
  const key = `${timeZone} ${iso}`
  const known = formatted.get(key)
  if (known !== undefined) return known
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return '—'
  const p: Record<string, string> = {}
  for (const part of formatter(timeZone).formatToParts(d)) p[part.type] = part.value
  const text = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`
  if (formatted.size >= 1000) formatted.clear()
  formatted.set(key, text)
  return text
}

/** A link in a secret runs up to whitespace or CJK punctuation (`…/s/1abc，提取码` ends at the comma). */
const LINK = /https?:\/\/[^\s<>"'，。；、！？（）【】「」]+/gi

/**
 * A share's secret as text and links: each http(s) link on its own, the words around it as text. A seller
 * who typed "link 提取码: x7k9" into the link field gets a link and a readable code, not one hyperlink
 * whose address swallowed the code (issue 13).
 */
export function linkParts(value: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = []
  let last = 0
  for (const m of value.matchAll(LINK)) {
    // A sentence's full stop or comma after a link is not part of it.
    const href = m[0].replace(/[.,;:!?)]+$/, '')
    if (m.index > last) parts.push({ text: value.slice(last, m.index) })
    parts.push({ text: href, href })
    last = m.index + href.length
  }
  if (last < value.length) parts.push({ text: value.slice(last) })
  return parts
}

const DATE_INPUT = /^(\d{4})[-/.年]\s*(\d{1,2})[-/.月]\s*(\d{1,2})日?$|^(\d{4})(\d{2})(\d{2})$/

/**
 * A date typed into a console date field, as `YYYY-MM-DD`, or null when it is not a calendar date. The
 * console shows dates as `YYYY-MM-DD` in both languages; the field also takes `2026/1/5`, `2026.01.05`,
 * `2026年1月5日` and `20260105`, and refuses 2026-02-30.
 */
export function parseDateInput(text: string): string | null {
  const m = DATE_INPUT.exec(text.trim())
  if (!m) return null
  const [y, mo, d] = (m[1] ? [m[1], m[2], m[3]] : [m[4], m[5], m[6]]).map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y, mo - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`
}
