/** Every API response: `{code, msg, data}`; the HTTP status mirrors `code` (DESIGN §4). */
export type Envelope<T = unknown> = { code: number; msg: string; data: T }

/** 422 responses carry per-field messages (i18n keys of the `validation` namespace). */
export type FieldErrors = Record<string, string[]>

export type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number }
