import { z } from 'zod'
import { endpoint, nothing } from './http.ts'
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

/**
 * Every form that sets a password (sign-up, reset, settings) asks for it twice: `confirmPassword` must
 * match the field `of`. One definition, used in the browser and in the action.
 */
function withConfirmedPassword<S extends z.ZodRawShape>(shape: S, of: keyof S & string) {
  return z
    .object({ ...shape, confirmPassword: z.string({ error: 'validation.confirmRequired' }) })
    .refine((v: Record<string, unknown>) => v[of] === v.confirmPassword, { path: ['confirmPassword'], message: 'validation.confirmMismatch' })
}

/** The console's sign-up form: one email_phone field identified by SPEC §5, and the terms checkbox. */
export const registerFormSchema = withConfirmedPassword(
  {
    user_name: userNameSchema,
    email_phone: emailOrPhoneSchema,
    verificationCode: codeSchema,
    password: passwordSchema,
    agree: z.literal('on', { error: 'validation.agreeRequired' }),
  },
  'password',
)

export const forgotPasswordSchema = z.object({
  email: emailSchema.optional(),
  phone: phoneSchema.optional(),
  verificationCode: codeSchema,
  password: passwordSchema,
})

export const forgotFormSchema = withConfirmedPassword({ email_phone: emailOrPhoneSchema, verificationCode: codeSchema, password: passwordSchema }, 'password')

/** What a verification code is sent for, and by which way (the code outbox lists both). */
export const CODE_PURPOSES = ['register', 'forgot', 'bind'] as const
export const CODE_CHANNELS = ['email', 'sms'] as const

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
/** The settings form of a password change: the new password typed twice. */
export const updatePasswordFormSchema = withConfirmedPassword(updatePasswordSchema.shape, 'newPassword')

export const updateEmailSchema = z.object({ email: emailSchema, verificationCode: codeSchema })
export const updatePhoneSchema = z.object({ phone: phoneSchema, verificationCode: codeSchema })
/** The "Send code" step of the settings forms that bind an email or a phone: the address alone. */
export const emailCodeSchema = updateEmailSchema.pick({ email: true })
export const phoneCodeSchema = updatePhoneSchema.pick({ phone: true })

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

/** A bearer token (DESIGN §3: opaque, 30 days): the login answer and the one a password change issues. */
export const tokenSchema = z.object({ token: z.string() })

/**
 * What a code request answers: seconds until the next send may be asked for, and whether the code went
 * out for real or waits in the dev outbox (no mail or SMS provider configured).
 */
export const codeSentSchema = z.object({ resendAfter: z.number().int(), delivery: z.enum(['outbox', 'sent']) })
export type CodeSentAnswer = z.infer<typeof codeSentSchema>

const codeGet = <const P extends `/api/auth/${string}`, const A extends 'public' | 'user'>(path: P, access: A, summary: string) =>
  endpoint({ method: 'GET', path, access, tag: 'auth', summary, query: codeTargetQuerySchema, response: codeSentSchema })

export const authApi = {
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    tag: 'auth',
    summary: 'Log in with a user name, email or phone and the password',
    body: loginSchema,
    response: tokenSchema,
  }),
  /** Revokes the bearer token sent, if any; answers the same without one. */
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', access: 'public', tag: 'auth', summary: 'Revoke the token sent', response: nothing }),
  registerEmail: endpoint({
    method: 'POST',
    path: '/api/auth/register/email',
    access: 'public',
    tag: 'auth',
    summary: 'Sign up with an email and the code sent to it',
    body: registerEmailSchema,
    response: nothing,
  }),
  registerPhone: endpoint({
    method: 'POST',
    path: '/api/auth/register/phone',
    access: 'public',
    tag: 'auth',
    summary: 'Sign up with a phone and the code sent to it',
    body: registerPhoneSchema,
    response: nothing,
  }),
  forgotPassword: endpoint({
    method: 'POST',
    path: '/api/auth/forgotPassword',
    access: 'public',
    tag: 'auth',
    summary: "Set a new password with a code sent to the account's email or phone",
    body: forgotPasswordSchema,
    response: nothing,
  }),
  // The code GETs of SPEC §7; each takes ?email= or ?phone=.
  registerCode: codeGet('/api/auth/getRegisterVerificationCode', 'public', 'Send a sign-up code'),
  phoneRegisterCode: codeGet('/api/auth/getPhoneRegisterVerificationCode', 'public', 'Send a sign-up code (phone form)'),
  /** The path's typo is SPEC §7's. */
  forgotPasswordCode: codeGet('/api/auth/getForgotPasswordrVerificationCode', 'public', 'Send a password-reset code'),
  emailCode: codeGet('/api/auth/getEmailVerificationCode', 'user', "Send a code to bind an email to the caller's account"),
  phoneCode: codeGet('/api/auth/getPhoneVerificationCode', 'user', "Send a code to bind a phone to the caller's account"),
}
