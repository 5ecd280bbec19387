/** A unique violation from either driver (pg error code 23505), with the constraint name. */
export function uniqueViolation(e: unknown): string | null {
  let err = e as { code?: string; constraint?: string; cause?: unknown } | undefined
  for (let i = 0; err && i < 3; i++) {
    if (err.code === '23505') return err.constraint ?? 'unique'
    err = err.cause as typeof err
  }
  return null
}

/** A foreign key violation from either driver (pg error code 23503): the row referred to is gone, or still referred to. */
export function foreignKeyViolation(e: unknown): boolean {
  let err = e as { code?: string; cause?: unknown } | undefined
  for (let i = 0; err && i < 3; i++) {
    if (err.code === '23503') return true
    err = err.cause as typeof err
  }
  return false
}
