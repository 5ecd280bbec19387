// Both gateways read wall-clock times as Beijing time. China Standard Time is UTC+8 all year (no DST
// since 1991), so a fixed offset is exact and the process time zone (TZ) does not matter.
const CST_OFFSET_MS = 8 * 3600 * 1000

function cstParts(at: Date) {
  const iso = new Date(at.getTime() + CST_OFFSET_MS).toISOString() // 2026-11-21T09:30:00.000Z, shifted
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) }
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time: Alipay's `timestamp`, `time_expire`, `notify_time`. */
export function alipayTime(at: Date = new Date()): string {
  const p = cstParts(at)
  return `${p.date} ${p.time}`
}

/** RFC 3339 with the +08:00 offset, as WeChat Pay writes it (`time_expire`, `success_time`). */
export function rfc3339China(at: Date = new Date()): string {
  const p = cstParts(at)
  return `${p.date}T${p.time}+08:00`
}
