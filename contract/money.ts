// DESIGN §2: integer fen inside, yuan (≤ 2 decimals) on the wire. The only conversion point.
export type Fen = number

export function yuanToFen(yuan: number | string): Fen {
  if (typeof yuan === 'number') {
    if (!Number.isFinite(yuan) || yuan < 0) throw new RangeError(`not a yuan amount: ${yuan}`)
    const cents = yuan * 100
    const fen = Math.round(cents)
    // Binary floating noise (0.1 + 0.2) is not a third decimal; 1.0000001 is.
    if (Math.abs(fen - cents) > Math.max(1e-6, Math.abs(cents) * 1e-12)) throw new RangeError(`more than two decimals: ${yuan}`)
    if (!Number.isSafeInteger(fen)) throw new RangeError(`amount too large: ${yuan}`)
    return fen
  }
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(yuan.trim())
  if (!m) throw new RangeError(`not a yuan amount: ${yuan}`)
  const frac = (m[2] ?? '').padEnd(6, '0')
  if (!/^\d{2}0{4}$/.test(frac)) throw new RangeError(`more than two decimals: ${yuan}`)
  const fen = Number(m[1]) * 100 + Number(frac.slice(0, 2))
  if (!Number.isSafeInteger(fen)) throw new RangeError(`amount too large: ${yuan}`)
  return fen
}

/** Whether a value is a yuan amount with at most two decimals (the rule yuanToFen applies). */
export function isYuanAmount(yuan: number | string): boolean {
  try {
    yuanToFen(yuan)
    return true
  } catch {
    return false
  }
}

export function fenToYuan(fen: Fen): number {
  assertFen(fen)
  return Math.round(fen) / 100
}

/** `¥12.30` style text, always two decimals. */
export function formatYuan(fen: Fen): string {
  assertFen(fen)
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(Math.round(fen))
  return `${sign}¥${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** NaN or ±Infinity is a bug upstream; it must not turn into `null` in JSON or `¥NaN.NaN` on screen. */
function assertFen(fen: Fen) {
  if (!Number.isFinite(fen)) throw new RangeError(`not an amount in fen: ${fen}`)
}

/** A yuan amount as the API sends it (≤ 2 decimals), shown as `¥12.30`. */
export function formatYuanAmount(yuan: number): string {
  return yuan < 0 ? formatYuan(-yuanToFen(-yuan)) : formatYuan(yuanToFen(yuan))
}

/** Whether two yuan amounts are the same number of fen (0.1 + 0.2 and 0.3 are; 9.9 and 9.91 are not). */
export function sameYuan(a: number | string, b: number | string): boolean {
  return yuanToFen(a) === yuanToFen(b)
}
