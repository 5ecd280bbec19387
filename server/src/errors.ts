import type { FieldErrors } from '#contract/envelope.ts'

/** A failure with an HTTP status and a stable msg key (DESIGN §4); handlers throw it, one hook answers. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly msg: string,
    readonly data: unknown = null,
  ) {
    super(msg)
  }
}

export const unauthorized = (msg = 'auth.unauthorized') => new AppError(401, msg)
export const forbidden = (msg = 'auth.forbidden') => new AppError(403, msg)
export const notFound = (msg = 'errors.notFound') => new AppError(404, msg)
export const conflict = (msg: string, data?: unknown) => new AppError(409, msg, data)
export const tooMany = (msg = 'errors.rateLimited', retryAfterSeconds?: number) =>
  new AppError(429, msg, retryAfterSeconds ? { retryAfter: retryAfterSeconds } : null)
/** 422 with per-field messages, the same shape schema validation produces. */
export const invalid = (fieldErrors: FieldErrors) => new AppError(422, 'validation.failed', { fieldErrors })
