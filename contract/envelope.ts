/** Every API response: `{code, msg, data}`; the HTTP status mirrors `code` (DESIGN §4). */
export type Envelope<T = unknown> = { code: number; msg: string; data: T }

/** 422 responses carry per-field messages (i18n keys of the `validation` namespace). */
export type FieldErrors = Record<string, string[]>

export type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number }

export const SUCCESS_CODES = new Set([200, 201])

/** Stable `msg` keys the console translates (namespace `api`). */
export const ApiMsg = {
  ok: 'ok',
  created: 'created',
  validation: 'validation.failed',
  unauthorized: 'auth.unauthorized',
  forbidden: 'auth.forbidden',
  notFound: 'notFound',
  conflict: 'conflict',
  rateLimited: 'rateLimited',
  internal: 'internal',
  badCredentials: 'auth.badCredentials',
  banned: 'auth.banned',
  loginLocked: 'auth.loginLocked',
  codeInvalid: 'auth.codeInvalid',
  codeTooSoon: 'auth.codeTooSoon',
  codeDailyLimit: 'auth.codeDailyLimit',
  codeSendFailed: 'auth.codeSendFailed',
  userNameTaken: 'auth.userNameTaken',
  emailTaken: 'auth.emailTaken',
  phoneTaken: 'auth.phoneTaken',
  oldPasswordWrong: 'auth.oldPasswordWrong',
  registered: 'auth.registered',
  passwordReset: 'auth.passwordReset',
  codeSent: 'auth.codeSent',
  saved: 'saved',
} as const
export type ApiMsgKey = (typeof ApiMsg)[keyof typeof ApiMsg]
