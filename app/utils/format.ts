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

/** `YYYY-MM-DD HH:mm:ss` in the display zone; '—' for no time. */
export function formatDateTime(iso: string | null | undefined, timeZone = DISPLAY_TZ): string {
  if (!iso) return '—'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return '—'
  const p: Record<string, string> = {}
  for (const part of formatter(timeZone).formatToParts(d)) p[part.type] = part.value
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`
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
