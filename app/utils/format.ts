import dayjs from 'dayjs'
import timezone from 'dayjs/plugin/timezone.js'
import utc from 'dayjs/plugin/utc.js'

dayjs.extend(utc)
dayjs.extend(timezone)

/** DESIGN §2: times are shown in the user's zone, Asia/Shanghai by default (same on server and client). */
export const DISPLAY_TZ = 'Asia/Shanghai'

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  return dayjs(iso).tz(DISPLAY_TZ).format('YYYY-MM-DD HH:mm:ss')
}
