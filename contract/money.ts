// DESIGN §2: integer fen inside, yuan (≤ 2 decimals) on the wire. The only conversion point.
export type Fen = number

export function yuanToFen(yuan: number | string): Fen {
  const text = typeof yuan === 'number' ? yuan.toFixed(6) : yuan.trim()
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text)
  if (!m) throw new RangeError(`not a yuan amount: ${yuan}`)
  const frac = (m[2] ?? '').padEnd(6, '0')
  if (!/^\d{2}0{4}$/.test(frac)) throw new RangeError(`more than two decimals: ${yuan}`)
  const fen = Number(m[1]) * 100 + Number(frac.slice(0, 2))
  if (!Number.isSafeInteger(fen)) throw new RangeError(`amount too large: ${yuan}`)
  return fen
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
