import { z } from 'zod'
import { profileSchema, userNameSchema } from './rules.ts'

export const ROLES = ['admin', 'user'] as const
export type Role = (typeof ROLES)[number]
export const USER_STATUSES = ['active', 'disabled'] as const

/** SPEC §3 User, as the API returns it (never the password hash). */
export type User = {
  id: number
  uid: number
  user_name: string
  email: string | null
  phone: string | null
  role: Role
  status: (typeof USER_STATUSES)[number]
  profile: string
  is_banned: 0 | 1
  last_login_iP: string | null
  last_login_time: string | null
  terms_agreed_at: string | null
  alipayRealName: string | null
  alipayAccount: string | null
  created_at: string
}

export type LoginRecord = {
  id: number
  uid: number
  email: string | null
  username: string
  loginBrowser: string
  loginDevice: string
  loginIp: string
  created_at: string
}

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

/** Ids are PostgreSQL `integer`s; a larger number is not an id (and must not reach the database). */
export const ID_MAX = 2_147_483_647
/** An integer given as a JSON number or as digits (form / query); null, '', booleans and arrays are not. */
const integerInput = z.union([z.number(), z.string().trim().regex(/^-?\d+$/)], { error: 'validation.number' })
  .transform(Number)
  .pipe(z.number().int('validation.number'))
export const idSchema = integerInput.pipe(z.number().min(1, 'validation.number').max(ID_MAX, 'validation.number'))

export const adminUpdateUserSchema = z.object({
  id: idSchema,
  user_name: userNameSchema.optional(),
  profile: profileSchema.optional(),
  role: z.enum(ROLES, { error: 'validation.role' }).optional(),
  is_banned: integerInput.pipe(z.number().min(0).max(1)).optional(),
  status: z.enum(USER_STATUSES).optional(),
})
