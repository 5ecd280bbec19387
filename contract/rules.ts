// SPEC §5 validation rules, shared by the API and the console.
import { z } from 'zod'

/** SPEC §5 phone: mainland China mobile, 11 digits, starts with 1, second digit 3 to 9. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/
/** SPEC §5 email: letters, digits, dot, underscore or hyphen, @, a domain, a 2–6 letter top-level part. */
export const EMAIL_PATTERN = /^[A-Za-z0-9_.-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,6}$/
/**
 * SPEC §5 password: at least six characters with digits, letters (upper and lower case) and special
 * characters, no spaces.
 */
export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 64
export function isStrongPassword(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN &&
    value.length <= PASSWORD_MAX &&
    !/\s/.test(value) &&
    /\d/.test(value) &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /[^A-Za-z0-9]/.test(value)
  )
}
/** SPEC §9 profile limit. */
export const PROFILE_MAX = 200
export const USER_NAME_MIN = 2
export const USER_NAME_MAX = 32
/** Letters (any script), digits, underscore and hyphen; not all digits so it can never look like a phone. */
export const USER_NAME_PATTERN = /^(?!\d+$)[\p{L}\p{N}_-]+$/u
export const CODE_PATTERN = /^\d{6}$/

export const isPhone = (value: string) => PHONE_PATTERN.test(value)
export const isEmail = (value: string) => value.length <= 254 && EMAIL_PATTERN.test(value)

export type Identified = { kind: 'phone'; phone: string } | { kind: 'email'; email: string } | { kind: 'invalid' }

/**
 * SPEC §5 register / forgot-password identification: the email_phone field is a phone if it matches the
 * phone rule, else an email if it matches the email rule, else invalid ('请输入正确的邮箱或者手机号').
 */
export function identifyEmailOrPhone(raw: string): Identified {
  const value = raw.trim()
  if (isPhone(value)) return { kind: 'phone', phone: value }
  if (isEmail(value)) return { kind: 'email', email: value }
  return { kind: 'invalid' }
}

/**
 * SPEC §5 recency check: whether a timestamp lies within the last 24 hours. DESIGN §3 uses it for the
 * unsettled-income window.
 */
export const RECENCY_WINDOW_MS = 24 * 60 * 60 * 1000
export function isWithinLast24Hours(at: Date | string | number, now: Date = new Date()): boolean {
  const t = new Date(at).getTime()
  const n = now.getTime()
  return Number.isFinite(t) && t <= n && n - t < RECENCY_WINDOW_MS
}

// Zod pieces. Messages are i18n keys of the `validation` namespace, translated by the console.
// conform submits an empty field as undefined, so an empty value fails the type check, not `.min(1)`:
// the "required" message has to be the type error as well (SPEC §5 'Username cannot be empty').
const trimmed = (required = 'validation.required') => z.string({ error: required }).trim()

export const userNameSchema = trimmed('validation.usernameRequired')
  .min(1, 'validation.usernameRequired')
  .min(USER_NAME_MIN, 'validation.usernameLength')
  .max(USER_NAME_MAX, 'validation.usernameLength')
  .regex(USER_NAME_PATTERN, 'validation.usernameChars')

export const passwordSchema = z
  .string({ error: 'validation.passwordRequired' })
  .min(1, 'validation.passwordRequired')
  .max(PASSWORD_MAX, 'validation.passwordRule')
  .refine(isStrongPassword, 'validation.passwordRule')

export const emailSchema = trimmed('validation.emailRequired')
  .min(1, 'validation.emailRequired')
  .max(254, 'validation.emailFormat')
  .regex(EMAIL_PATTERN, 'validation.emailFormat')

export const phoneSchema = trimmed('validation.phoneRequired').min(1, 'validation.phoneRequired').regex(PHONE_PATTERN, 'validation.phoneFormat')

export const codeSchema = trimmed('validation.codeRequired').min(1, 'validation.codeRequired').regex(CODE_PATTERN, 'validation.codeFormat')

export const profileSchema = z.string({ error: 'validation.required' }).max(PROFILE_MAX, 'validation.profileMax')

/** The register / forgot-password email_phone field: SPEC §5 identification. */
export const emailOrPhoneSchema = trimmed('validation.emailOrPhone')
  .min(1, 'validation.emailOrPhone')
  .max(254, 'validation.emailOrPhone')
  .refine((v) => identifyEmailOrPhone(v).kind !== 'invalid', 'validation.emailOrPhone')
