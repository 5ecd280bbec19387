import { z } from 'zod'
import { loginSchema, tokenSchema } from './auth.ts'
import { endpoint, nothing, timestamp } from './http.ts'
import { userNameSchema } from './rules.ts'

/** Third-party login (SPEC §1 "QQ or WeChat login, third-party binding"; issue 12). */
export const OAUTH_PROVIDERS = ['qq', 'wechat'] as const
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number]

/** How an account logged in: shown on login records. */
export const LOGIN_METHODS = ['password', 'qq', 'wechat'] as const
export type LoginMethod = (typeof LOGIN_METHODS)[number]

/** Why a provider is asked: to log in (or sign up), or to bind it to the signed-in account. */
export const OAUTH_PURPOSES = ['login', 'bind'] as const
export type OAuthPurpose = (typeof OAUTH_PURPOSES)[number]

/**
 * The console page a provider sends the browser back to (SPEC §2: `/login/qq` LoginQQ, LoginWeChat,
 * `/bind/qq`). The API builds the redirect_uri from it and the public callback base URL.
 */
export function callbackPath(provider: OAuthProvider, purpose: OAuthPurpose): string {
  return `/${purpose}/${provider}`
}

export const providerSchema = z.enum(OAUTH_PROVIDERS, { error: 'oauth.unknownProvider' })

/** `state` and `code` as providers send them: opaque, bounded. */
const opaque = (key: string) => z.string({ error: key }).trim().min(1, key).max(512, key)

export const authorizeSchema = z.object({ provider: providerSchema, purpose: z.enum(OAUTH_PURPOSES).default('login') })
/**
 * `state` travels in the provider's URLs; `binding` never leaves the browser's httpOnly cookie, and the
 * state is derived from it, so a callback proves it comes from the browser that started (decision 093).
 */
export const authorizeAnswerSchema = z.object({ url: z.string(), state: z.string(), binding: z.string() })

export const callbackSchema = z.object({
  provider: providerSchema,
  code: opaque('oauth.codeMissing'),
  state: opaque('oauth.stateInvalid'),
  /** The `binding` of the authorize answer, from the browser's cookie: a code and state alone log nobody in. */
  binding: opaque('oauth.stateInvalid'),
})
/**
 * What a provider's answer led to: logged in (a token), bound to the caller's account, or an identity no
 * account has yet — the browser keeps the one-time `ticket` and chooses bind-to-existing or create.
 */
export const callbackAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('login'), token: z.string() }),
  z.object({ kind: z.literal('bound'), provider: providerSchema }),
  z.object({ kind: z.literal('unknown'), ticket: z.string(), provider: providerSchema, nickname: z.string() }),
])
export type CallbackAnswer = z.infer<typeof callbackAnswerSchema>

const ticketSchema = opaque('oauth.ticketInvalid')

/** Bind the new identity to an existing account: its password, once. */
export const bindExistingSchema = loginSchema.extend({ ticket: ticketSchema })
/** Create an account for the new identity: a user name (the terms checkbox is the console's, as at sign-up). */
export const createAccountSchema = z.object({ ticket: ticketSchema, user_name: userNameSchema })
/** The console's create form: the user name and the terms checkbox (SPEC §5, as at sign-up). */
export const createAccountFormSchema = z.object({ user_name: userNameSchema, agree: z.literal('on', { error: 'validation.agreeRequired' }) })

export const bindingSchema = z.object({ provider: providerSchema, nickname: z.string(), created_at: timestamp })
export type Binding = z.infer<typeof bindingSchema>
export const bindingsSchema = z.object({
  list: z.array(bindingSchema),
  /** False for an account created by QQ / WeChat that has not set a password (decision 094). */
  has_password: z.boolean(),
  /** The providers this server offers (configured, or the sandbox where allowed). */
  available: z.array(providerSchema),
})
export type Bindings = z.infer<typeof bindingsSchema>

export const unbindSchema = z.object({ provider: providerSchema })

export const oauthApi = {
  providers: endpoint({
    method: 'GET',
    path: '/api/oauth/providers',
    access: 'public',
    tag: 'oauth',
    summary: 'The third-party logins this server offers',
    response: z.array(z.object({ provider: providerSchema, sandbox: z.boolean() })),
  }),
  authorize: endpoint({
    method: 'POST',
    path: '/api/oauth/authorize',
    access: 'optional',
    tag: 'oauth',
    summary: "Start a QQ / WeChat round trip: the provider's consent URL, its state, and the binding secret the browser must keep (bind: the caller's account)",
    body: authorizeSchema,
    response: authorizeAnswerSchema,
  }),
  callback: endpoint({
    method: 'POST',
    path: '/api/oauth/callback',
    access: 'optional',
    tag: 'oauth',
    summary: "The provider's code and state, back from its consent page, with the browser's binding secret: log in, bind, or an unknown identity's ticket",
    body: callbackSchema,
    response: callbackAnswerSchema,
  }),
  bindExisting: endpoint({
    method: 'POST',
    path: '/api/oauth/bindExisting',
    access: 'public',
    tag: 'oauth',
    summary: "Bind an unknown identity's ticket to an existing account (its password once) and log in",
    body: bindExistingSchema,
    response: tokenSchema,
  }),
  createAccount: endpoint({
    method: 'POST',
    path: '/api/oauth/createAccount',
    access: 'public',
    tag: 'oauth',
    summary: "Create an account for an unknown identity's ticket and log in",
    body: createAccountSchema,
    response: tokenSchema,
  }),
  bindings: endpoint({ method: 'GET', path: '/api/oauth/bindings', access: 'user', tag: 'oauth', summary: "The caller's bound identities", response: bindingsSchema }),
  unbind: endpoint({
    method: 'POST',
    path: '/api/oauth/unbind',
    access: 'user',
    tag: 'oauth',
    summary: "Unbind one of the caller's identities (refused when it is the account's last way to log in)",
    body: unbindSchema,
    response: nothing,
  }),
}
