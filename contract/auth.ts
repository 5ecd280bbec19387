import { z } from 'zod'
import {
  codeSchema,
  emailOrPhoneSchema,
  emailSchema,
  passwordSchema,
  phoneSchema,
  profileSchema,
  userNameSchema,
} from './rules.ts'

/** SPEC §5 login: 'Username cannot be empty' / 'Password cannot be empty'. */
export const loginSchema = z.object({
  username: z.string({ error: 'validation.usernameRequired' }).trim().min(1, 'validation.usernameRequired').max(254, 'validation.tooLong'),
  password: z.string({ error: 'validation.passwordRequired' }).min(1, 'validation.passwordRequired').max(256, 'validation.tooLong'),
})
export type LoginInput = z.infer<typeof loginSchema>

export const registerEmailSchema = z.object({
  user_name: userNameSchema,
  password: passwordSchema,
  verificationCode: codeSchema,
  email: emailSchema,
})
export const registerPhoneSchema = z.object({
  user_name: userNameSchema,
  password: passwordSchema,
  verificationCode: codeSchema,
  phone: phoneSchema,
})

/** The console's sign-up form: one email_phone field identified by SPEC §5, and the terms checkbox. */
export const registerFormSchema = z
  .object({
    user_name: userNameSchema,
    email_phone: emailOrPhoneSchema,
    verificationCode: codeSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: 'validation.confirmRequired' }),
    agree: z.literal('on', { error: 'validation.agreeRequired' }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'validation.confirmMismatch' })

export const forgotPasswordSchema = z.object({
  email: emailSchema.optional(),
  phone: phoneSchema.optional(),
  verificationCode: codeSchema,
  password: passwordSchema,
})

export const forgotFormSchema = z
  .object({
    email_phone: emailOrPhoneSchema,
    verificationCode: codeSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: 'validation.confirmRequired' }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'validation.confirmMismatch' })

/** Query of the code GETs of SPEC §7: `?email=` or `?phone=`. */
export const codeTargetQuerySchema = z.object({
  email: emailSchema.optional(),
  phone: phoneSchema.optional(),
})

export const updateProfileSchema = z.object({
  user_name: userNameSchema,
  profile: profileSchema.default(''),
})

export const updatePasswordSchema = z.object({
  oldPassword: z.string({ error: 'validation.passwordRequired' }).min(1, 'validation.passwordRequired').max(256, 'validation.tooLong'),
  newPassword: passwordSchema,
})

export const updateEmailSchema = z.object({ email: emailSchema, verificationCode: codeSchema })
export const updatePhoneSchema = z.object({ phone: phoneSchema, verificationCode: codeSchema })

export const ALIPAY_REAL_NAME_MAX = 32
export const updateAlipaySchema = z.object({
  alipayRealName: z
    .string({ error: 'validation.alipayRealNameRequired' })
    .trim()
    .min(1, 'validation.alipayRealNameRequired')
    .max(ALIPAY_REAL_NAME_MAX, 'validation.tooLong'),
  // An Alipay account is the phone or email it was opened with.
  alipayAccount: z
    .string({ error: 'validation.alipayAccountRequired' })
    .trim()
    .min(1, 'validation.alipayAccountRequired')
    .refine((v) => emailOrPhoneSchema.safeParse(v).success, 'validation.alipayAccountFormat'),
})
