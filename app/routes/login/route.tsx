import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Alert, Anchor, Center, Group, Paper, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { authApi, forgotFormSchema, loginSchema, registerFormSchema } from '#contract/auth.ts'
import { identifyEmailOrPhone } from '#contract/rules.ts'
import { lazyValidation, useLazyValidators } from '#app/components/forms/lazy-validation.ts'
import { VerificationCodeField } from '#app/components/forms/code-field.tsx'
import { PasswordField, TextField } from '#app/components/forms/fields.tsx'
import { IntentForm } from '#app/components/forms/intent-form.tsx'
import { AgreeToTermsField } from '#app/components/agreement/agree-field.tsx'
import { LocaleSwitch } from '#app/components/layout/LocaleSwitch.tsx'
import { SkipLink, TextSeparated } from '#app/components/layout/text-mode.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { authenticator, commitToken, destroySession, requireAnonymous, safeRedirect } from '#app/.server/auth.ts'
import { type CodeSent, sendCode } from '#app/.server/codes.ts'
import { fieldError } from '#app/.server/failures.ts'
import { getT, pageTitle } from '#app/.server/i18n.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { offeredProviders } from '#app/.server/oauth-routes.ts'
import { ProviderButtons } from '#app/components/oauth/provider-buttons.tsx'
import { schemaFor } from './validators.ts'

const TABS = ['login', 'register', 'forgot'] as const
type Tab = (typeof TABS)[number]
const tabOf = (v: string | null): Tab => (TABS.includes(v as Tab) ? (v as Tab) : 'login')

const loadValidators = () => import('./validators.ts')

/** The fields' constraints (`required`, `maxLength`…), computed here so the browser needs no zod for them. */
const constraints = {
  login: getZodConstraint(loginSchema),
  register: getZodConstraint(registerFormSchema),
  forgot: getZodConstraint(forgotFormSchema),
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request)
  // Each tab's own name (issue 23: the register and forgot-password tabs were titled "登录").
  const tab = tabOf(new URL(request.url).searchParams.get('tab'))
  return { title: await pageTitle(request, tab === 'login' ? 'auth.loginTitle' : `auth.tabs.${tab}`), oauth: await offeredProviders(request), constraints }
}

/** What a refused login says: the API's reason, with the lock's end (decision 040); else SPEC §5's text. */
async function loginFailure(request: Request, e: unknown): Promise<string[]> {
  if (!(e instanceof ApiError) || e.unreachable || e.status >= 500) return ['auth.loginError']
  const retryAfter = Number((e.data as { retryAfter?: unknown } | null)?.retryAfter)
  if (e.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0) {
    const t = await getT(request)
    return [t('auth.loginLockedFor', { minutes: Math.ceil(retryAfter / 60) })]
  }
  return [e.msg]
}

type ActionResult = { intent: string; result: SubmissionResult<string[]>; codeSent?: CodeSent & { at: number } }

export async function action({ request }: ActionFunctionArgs) {
  // A clone: remix-auth reads the original body itself.
  const formData = await readForm(request.clone(), ['login', 'register', 'registerCode', 'forgot', 'forgotCode'])
  const intent = String(formData.get('intent') ?? 'login')
  const submission = parseWithZod(formData, { schema: schemaFor(intent) })
  if (submission.status !== 'success') {
    return data<ActionResult>({ intent, result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
  }
  const url = new URL(request.url)
  const fieldMap = { email: 'email_phone', phone: 'email_phone' }

  if (intent === 'login') {
    // Checked before the API issues a token: a forged target is refused (400) without logging in.
    const to = safeRedirect(url.searchParams.get('redirect'))
    try {
      const token = await authenticator.authenticate('form', request)
      return redirectWithToast(
        request,
        to,
        { type: 'success', key: 'auth.welcome' },
        {
          headers: { 'set-cookie': await commitToken(request, token) },
        },
      )
    } catch (e) {
      // SPEC §4: a failed login clears the stored token. SPEC §5's 'Login error, refresh and try again'
      // is for a failure with no reason of its own (the API did not answer or failed); a reason the API
      // gives — a wrong password, a lock, a ban — is told alone, since refreshing cannot help (decision 129).
      const formErrors = await loginFailure(request, e)
      const reply = { intent, result: submission.reply({ formErrors, hideFields: ['password'] }) }
      return data<ActionResult>(reply, { status: 400, headers: { 'set-cookie': await destroySession(request) } })
    }
  }

  const value = submission.value as Record<string, string>
  try {
    if (intent === 'registerCode' || intent === 'forgotCode') {
      const sent = await sendCode(request, intent === 'registerCode' ? 'register' : 'forgot', value.email_phone)
      return { intent, result: submission.reply(), codeSent: { ...sent, at: Date.now() } } satisfies ActionResult
    }
    const id = identifyEmailOrPhone(value.email_phone)
    const target = id.kind === 'phone' ? { phone: id.phone } : id.kind === 'email' ? { email: id.email } : {}
    if (intent === 'register') {
      const account = { user_name: value.user_name, password: value.password, verificationCode: value.verificationCode }
      if (id.kind === 'phone') await api(request, authApi.registerPhone, { body: { ...account, phone: id.phone } })
      else await api(request, authApi.registerEmail, { body: { ...account, email: id.kind === 'email' ? id.email : value.email_phone } })
      // SPEC §8: '注册成功'; then log in with the new account.
      return redirectWithToast(request, `/login?${new URLSearchParams({ username: value.user_name })}`, { type: 'success', key: 'auth.registered' })
    }
    await api(request, authApi.forgotPassword, { body: { password: value.password, verificationCode: value.verificationCode, ...target } })
    return redirectWithToast(request, '/login', { type: 'success', key: 'auth.passwordReset' })
  } catch (e) {
    const res = await fieldError(request, submission, e, fieldMap)
    // SPEC §8: any error during register or forgot-password clears the stored token.
    res.init = { ...res.init, headers: { 'set-cookie': await destroySession(request) } }
    return data<ActionResult>({ intent, result: res.data }, res.init)
  }
}

function TabLinks({ tab }: { tab: Tab }) {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const href = (to: Tab) => {
    const p = new URLSearchParams(params)
    p.set('tab', to)
    p.delete('username')
    return `/login?${p}`
  }
  return (
    <Group gap="lg" mb="md" role="tablist">
      <TextSeparated>
        {TABS.map((name) => (
          <Anchor
            key={name}
            component={Link}
            to={href(name)}
            role="tab"
            aria-selected={tab === name}
            fw={tab === name ? 700 : 400}
            underline={tab === name ? 'always' : 'hover'}
          >
            {t(`auth.tabs.${name}`)}
          </Anchor>
        ))}
      </TextSeparated>
    </Group>
  )
}

function LoginForm({ last }: { last?: ActionResult }) {
  const { t } = useTranslation()
  const { constraints } = useLoaderData<typeof loader>()
  const validators = useLazyValidators(loadValidators)
  const [params] = useSearchParams()
  // Sent here by a session that ended because the account was banned (app/.server/auth.ts).
  const banned = params.get('reason') === 'banned' && !last
  const [form, fields] = useForm({
    id: 'login-form',
    lastResult: last?.intent === 'login' ? last.result : undefined,
    constraint: constraints.login,
    defaultValue: { username: params.get('username') ?? '' },
    // Once shown, an error goes as soon as the value is fixed (shouldRevalidate onInput), not on the blur
    // of the click on submit (that blur moved the button away from under the pointer and the click was lost).
    ...lazyValidation(validators && (({ formData }: { formData: FormData }) => validators.validateLogin(formData))),
  })
  return (
    <IntentForm form={form} intent="login" label={t('auth.login')}>
      {banned ? (
        <Alert color="red" variant="light" role="alert">
          {t('auth.bannedLoggedOut')}
        </Alert>
      ) : null}
      <TextField meta={fields.username} label={t('auth.username')} autoComplete="username" />
      <PasswordField meta={fields.password} label={t('auth.password')} autoComplete="current-password" />
    </IntentForm>
  )
}

/**
 * The register and forgot-password forms: each is `intent` with a code sent by `<intent>Code`, validated
 * in the browser once the validators' chunk has loaded (and always by the action).
 */
function useCodeForm<Fields extends Record<string, unknown>>(intent: 'register' | 'forgot', last: ActionResult | undefined) {
  const { constraints } = useLoaderData<typeof loader>()
  const validators = useLazyValidators(loadValidators)
  const mine = last?.intent === intent || last?.intent === `${intent}Code`
  const [form, fields] = useForm<Fields>({
    id: `${intent}-form`,
    lastResult: mine ? last.result : undefined,
    constraint: constraints[intent],
    ...lazyValidation(validators && (({ formData }: { formData: FormData }) => validators.validate(formData) as never)),
  })
  return { form, fields, sent: mine ? last?.codeSent : undefined }
}

function RegisterForm({ last }: { last?: ActionResult }) {
  const { t } = useTranslation()
  const { form, fields, sent } = useCodeForm<z.input<typeof registerFormSchema>>('register', last)
  return (
    <IntentForm form={form} intent="register" label={t('auth.register')}>
      <TextField meta={fields.user_name} label={t('auth.userName')} autoComplete="username" />
      <TextField meta={fields.email_phone} label={t('auth.emailOrPhone')} autoComplete="email" />
      <VerificationCodeField meta={fields.verificationCode} intent="registerCode" sent={sent} />
      <PasswordField meta={fields.password} label={t('auth.password')} description={t('validation.passwordRule')} autoComplete="new-password" />
      <PasswordField meta={fields.confirmPassword} label={t('auth.confirmPassword')} autoComplete="new-password" />
      <AgreeToTermsField meta={fields.agree} />
    </IntentForm>
  )
}

function ForgotForm({ last }: { last?: ActionResult }) {
  const { t } = useTranslation()
  const { form, fields, sent } = useCodeForm<z.input<typeof forgotFormSchema>>('forgot', last)
  return (
    <IntentForm form={form} intent="forgot" label={t('auth.resetPassword')}>
      <TextField meta={fields.email_phone} label={t('auth.emailOrPhone')} autoComplete="email" />
      <VerificationCodeField meta={fields.verificationCode} intent="forgotCode" sent={sent} />
      <PasswordField meta={fields.password} label={t('auth.newPassword')} description={t('validation.passwordRule')} autoComplete="new-password" />
      <PasswordField meta={fields.confirmPassword} label={t('auth.confirmPassword')} autoComplete="new-password" />
    </IntentForm>
  )
}

export default function LoginPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const last = useActionData<typeof action>() as ActionResult | undefined
  const { oauth } = useLoaderData<typeof loader>()
  const tab = tabOf(params.get('tab'))
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <SkipLink label={t('common.skipToMain')} />
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={440} radius="md">
        <Group justify="space-between" mb="xs">
          <Title order={1} size="h2" c="arcoblue">
            {t('common.siteName')}
          </Title>
          <LocaleSwitch />
        </Group>
        <Text c="dimmed" size="sm" mb="lg">
          {t('auth.tagline')}
        </Text>
        <main id="main" tabIndex={-1}>
          <TabLinks tab={tab} />
          {tab === 'login' ? <LoginForm last={last} /> : tab === 'register' ? <RegisterForm last={last} /> : <ForgotForm last={last} />}
          {tab === 'login' ? <ProviderButtons providers={oauth} /> : null}
        </main>
        <Group justify="center" mt="lg" gap="md">
          <Anchor component={Link} to="/agreement/exemptionagree" size="xs" c="dimmed">
            {t('pages.agreement.exemption')}
          </Anchor>
        </Group>
      </Paper>
    </Center>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
