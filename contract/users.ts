import { z } from 'zod'
import {
  ALIPAY_REAL_NAME_MAX,
  tokenSchema,
  updateAlipaySchema,
  updateEmailSchema,
  updatePasswordSchema,
  updatePhoneSchema,
  updateProfileSchema,
} from './auth.ts'
import { endpoint, pageOf, timestamp } from './http.ts'
import { LOGIN_METHODS } from './oauth.ts'
import { emailOrPhoneSchema, emailSchema, phoneSchema, profileSchema, userNameSchema } from './rules.ts'

export const ROLES = ['admin', 'user'] as const
export const USER_STATUSES = ['active', 'disabled'] as const

/** SPEC §3 User, as the API returns it (never the password hash). */
export const userSchema = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  user_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  profile: z.string(),
  is_banned: z.literal([0, 1]),
  last_login_iP: z.string().nullable(),
  last_login_time: timestamp.nullable(),
  terms_agreed_at: timestamp.nullable(),
  alipayRealName: z.string().nullable(),
  alipayAccount: z.string().nullable(),
  created_at: timestamp,
})
export type User = z.infer<typeof userSchema>

/** SPEC §3 Login record. */
export const loginRecordSchema = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  email: z.string().nullable(),
  username: z.string(),
  loginBrowser: z.string(),
  loginDevice: z.string(),
  loginIp: z.string(),
  /** password, qq or wechat (issue 12). */
  method: z.enum(LOGIN_METHODS),
  created_at: timestamp,
})
export type LoginRecord = z.infer<typeof loginRecordSchema>

/** Where a seller is paid (DESIGN §3): both null until set. */
export const alipayInfoSchema = z.object({ alipayRealName: z.string().nullable(), alipayAccount: z.string().nullable() })
export type AlipayInfo = z.infer<typeof alipayInfoSchema>

export const pageQuerySchema = z.object({
  pageNum: z.coerce.number({ error: 'validation.number' }).int().min(1).max(100000).default(1),
  pageSize: z.coerce.number({ error: 'validation.number' }).int().min(1).max(100).default(20),
})

export const userListQuerySchema = pageQuerySchema.extend({
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
  role: z.enum(ROLES).optional(),
  is_banned: z.coerce.number().int().min(0).max(1).optional(),
})

export const loginRecordQuerySchema = pageQuerySchema.extend({
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
})

/** An IPv4 or IPv6 address as the API records it (digits, hex, dots and colons). */
const ipSchema = z
  .string()
  .trim()
  .max(45, 'oversight.validation.ip')
  .regex(/^[0-9A-Fa-f.:]+$/, 'oversight.validation.ip')

/**
 * The admin's login-record filters (issue 9): one user (by id), an exact IP, a range of Shanghai days;
 * each has its index (login_records_user_idx, _ip_idx, _created_idx).
 */
export const adminLoginRecordFiltersSchema = loginRecordQuerySchema.extend({
  uid: z.coerce.number({ error: 'validation.number' }).int('validation.number').min(1, 'validation.number').max(2_147_483_647, 'validation.number').optional(),
  ip: ipSchema.optional(),
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
})
export const adminLoginRecordQuerySchema = adminLoginRecordFiltersSchema.refine((q) => !q.from || !q.to || q.from <= q.to, {
  message: 'oversight.validation.dateRange',
  path: ['to'],
})

/** Ids are PostgreSQL `integer`s; a larger number is not an id (and must not reach the database). */
export const ID_MAX = 2_147_483_647
/** An integer given as a JSON number or as digits (form / query); null, '', booleans and arrays are not. */
const integerInput = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/),
    ],
    { error: 'validation.number' },
  )
  .transform(Number)
  .pipe(z.number().int('validation.number'))
export const idSchema = integerInput.pipe(z.number().min(1, 'validation.number').max(ID_MAX, 'validation.number'))

/**
 * An admin's change to an account (SPEC §3 User fields). Absent fields stay as they are; for email,
 * phone and the Alipay details null clears the field. An email or phone set here is not verified by a
 * code: the admin vouches for it (decision 068).
 */
export const adminUpdateUserSchema = z.object({
  id: idSchema,
  user_name: userNameSchema.optional(),
  profile: profileSchema.optional(),
  role: z.enum(ROLES, { error: 'validation.role' }).optional(),
  is_banned: integerInput.pipe(z.number().min(0).max(1)).optional(),
  status: z.enum(USER_STATUSES, { error: 'oversight.validation.userStatus' }).optional(),
  email: emailSchema.nullable().optional(),
  phone: phoneSchema.nullable().optional(),
  alipayRealName: z
    .string({ error: 'validation.alipayRealNameRequired' })
    .trim()
    .min(1, 'validation.alipayRealNameRequired')
    .max(ALIPAY_REAL_NAME_MAX, 'validation.tooLong')
    .nullable()
    .optional(),
  alipayAccount: z
    .string({ error: 'validation.alipayAccountRequired' })
    .trim()
    .refine((v) => emailOrPhoneSchema.safeParse(v).success, 'validation.alipayAccountFormat')
    .nullable()
    .optional(),
})

export const usersApi = {
  userInfo: endpoint({ method: 'GET', path: '/api/users/userInfo', access: 'user', tag: 'users', summary: 'The caller', response: userSchema }),
  update: endpoint({
    method: 'POST',
    path: '/api/users/update',
    access: 'user',
    tag: 'users',
    summary: "The caller's user name and profile",
    body: updateProfileSchema,
    response: userSchema,
  }),
  /** Revokes every token of the account and answers a fresh one. */
  updatePassword: endpoint({
    method: 'POST',
    path: '/api/users/updatePassword',
    access: 'user',
    tag: 'users',
    summary: "Change the caller's password",
    body: updatePasswordSchema,
    response: tokenSchema,
  }),
  updateEmail: endpoint({
    method: 'POST',
    path: '/api/users/updateEmail',
    access: 'user',
    tag: 'users',
    summary: 'Bind an email with the code sent to it',
    body: updateEmailSchema,
    response: userSchema,
  }),
  /** The security phone (DESIGN §3: needed to publish shares). */
  updatePhone: endpoint({
    method: 'POST',
    path: '/api/users/updatePhone',
    access: 'user',
    tag: 'users',
    summary: 'Bind a phone with the code sent to it',
    body: updatePhoneSchema,
    response: userSchema,
  }),
  getAlipayInfo: endpoint({
    method: 'GET',
    path: '/api/users/getAlipayInfo',
    access: 'user',
    tag: 'users',
    summary: "The caller's payout account",
    response: alipayInfoSchema,
  }),
  updateAlipayInfo: endpoint({
    method: 'POST',
    path: '/api/users/updateAlipayInfo',
    access: 'user',
    tag: 'users',
    summary: "Set the caller's payout account",
    body: updateAlipaySchema,
    response: alipayInfoSchema,
  }),
  /** The sharing disclaimer (/agreement/exemptionagree); the first agreement time is kept. */
  agreeToTerms: endpoint({
    method: 'POST',
    path: '/api/users/agreeToTerms',
    access: 'user',
    tag: 'users',
    summary: 'Agree to the sharing terms',
    response: userSchema,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/users/list',
    access: 'admin',
    tag: 'users',
    summary: 'Every account, newest first, by keyword (name, email, phone), role and ban',
    query: userListQuerySchema,
    response: pageOf(userSchema),
  }),
  getUserById: endpoint({
    method: 'GET',
    path: '/api/users/admin/getUserById',
    access: 'admin',
    tag: 'users',
    summary: 'One account',
    query: z.object({ id: idSchema }),
    response: userSchema,
  }),
  /** Banning or disabling revokes the account's tokens. */
  adminUpdate: endpoint({
    method: 'POST',
    path: '/api/users/admin/update',
    access: 'admin',
    tag: 'users',
    summary: "An account's name, email, phone, profile, Alipay details, role, status or ban",
    body: adminUpdateUserSchema,
    response: userSchema,
  }),
}

export const loginRecordsApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/loginRecords/list',
    access: 'user',
    tag: 'users',
    summary: "The caller's logins, newest first",
    query: loginRecordQuerySchema,
    response: pageOf(loginRecordSchema),
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/loginRecords/admin/list',
    access: 'admin',
    tag: 'users',
    summary: 'Every login, newest first, by keyword (name, email, IP), user id, exact IP and date range',
    query: adminLoginRecordQuerySchema,
    response: pageOf(loginRecordSchema),
  }),
}
