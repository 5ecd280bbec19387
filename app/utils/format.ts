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
