import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { updateAlipaySchema, updateProfileSchema } from '#contract/auth.ts'
import { codeSchema, emailSchema, passwordSchema, phoneSchema } from '#contract/rules.ts'
import type { User } from '#contract/users.ts'
import { VerificationCodeField } from '~/components/code-button.tsx'
import { FormErrors, PasswordField, TextareaField, TextField, useIsPending } from '~/components/forms.tsx'
import { callApi } from '~/.server/api.ts'
import { commitToken, requireUser } from '~/.server/auth.ts'
import { type CodeSent, sendCode } from '~/.server/codes.ts'
import { replyWithApiError } from '~/.server/forms.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { redirectWithToast } from '~/.server/toast.ts'
import { formatDateTime } from '~/utils/format.ts'

const passwordFormSchema = z
  .object({
    oldPassword: z.string({ error: 'validation.passwordRequired' }).min(1, 'validation.passwordRequired'),
    newPassword: passwordSchema,
    confirmPassword: z.string({ error: 'validation.confirmRequired' }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'validation.confirmMismatch' })
const emailFormSchema = z.object({ email: emailSchema, verificationCode: codeSchema })
const emailCodeSchema = z.object({ email: emailSchema })
const phoneFormSchema = z.object({ phone: phoneSchema, verificationCode: codeSchema })
const phoneCodeSchema = z.object({ phone: phoneSchema })

const SCHEMAS = {
  profile: updateProfileSchema,
  password: passwordFormSchema,
  email: emailFormSchema,
  emailCode: emailCodeSchema,
  phone: phoneFormSchema,
  phoneCode: phoneCodeSchema,
  alipay: updateAlipaySchema,
} as const
type Intent = keyof typeof SCHEMAS
const schemaFor = (intent: FormDataEntryValue | null) => SCHEMAS[(intent as Intent) in SCHEMAS ? (intent as Intent) : 'profile']

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request)
  return { title: await pageTitle(request, 'menu.setting'), user }
}

type ActionResult = { intent: string; result: SubmissionResult<string[]>; codeSent?: CodeSent & { at: number } }

export async function action({ request }: ActionFunctionArgs) {
  const { token } = await requireUser(request)
  const formData = await request.formData()
  const intent = String(formData.get('intent') ?? '')
  if (intent === 'terms') {
    await callApi(request, '/api/users/agreeToTerms', { method: 'POST', token })
    return redirectWithToast(request, '/user/setting', { type: 'success', key: 'settings.termsAgreed' })
  }
  const submission = parseWithZod(formData, { schema: schemaFor(intent) })
  if (submission.status !== 'success') {
    return data<ActionResult>({ intent, result: submission.reply({ hideFields: ['oldPassword', 'newPassword', 'confirmPassword'] }) }, { status: 400 })
  }
  const v = submission.value as Record<string, string>
  const saved = (anchor: string) => redirectWithToast(request, `/user/setting#${anchor}`, { type: 'success', key: 'settings.saveSuccess' })
  try {
    switch (intent as Intent) {
      case 'profile':
        await callApi(request, '/api/users/update', { token, body: { user_name: v.user_name, profile: v.profile ?? '' } })
        return saved('profile')
      case 'password': {
        const r = await callApi<{ token: string }>(request, '/api/users/updatePassword', { token, body: { oldPassword: v.oldPassword, newPassword: v.newPassword } })
        // Every old token is revoked; this session continues with the fresh one.
        return redirectWithToast(request, '/user/setting#password', { type: 'success', key: 'settings.passwordChanged' }, {
          headers: { 'set-cookie': await commitToken(request, r.token) },
        })
      }
      case 'emailCode':
      case 'phoneCode': {
        const target = intent === 'emailCode' ? v.email : v.phone
        const sent = await sendCode(request, 'bind', target, token)
        return { intent, result: submission.reply(), codeSent: { ...sent, at: Date.now() } } satisfies ActionResult
      }
      case 'email':
        await callApi(request, '/api/users/updateEmail', { token, body: { email: v.email, verificationCode: v.verificationCode } })
        return saved('email')
      case 'phone':
        await callApi(request, '/api/users/updatePhone', { token, body: { phone: v.phone, verificationCode: v.verificationCode } })
        return saved('security-phone')
      case 'alipay':
        await callApi(request, '/api/users/updateAlipayInfo', { token, body: { alipayRealName: v.alipayRealName, alipayAccount: v.alipayAccount } })
        return saved('alipay')
    }
  } catch (e) {
    const res = await replyWithApiError(request, submission as never, e)
    return data<ActionResult>({ intent, result: res.data as SubmissionResult<string[]> }, res.init ?? undefined)
  }
  return data<ActionResult>({ intent, result: submission.reply({ formErrors: ['errors.badRequest'] }) }, { status: 400 })
}

function Section({ id, title, children, extra }: { id: string; title: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <Card withBorder padding="lg" id={id} component="section" aria-labelledby={`${id}-title`}>
      <Group justify="space-between" mb="md">
        <Title order={4} id={`${id}-title`}>
          {title}
        </Title>
        {extra}
      </Group>
      {children}
    </Card>
  )
}

/** One conform form per section; the action result only feeds the form whose intent sent it. */
function useSectionForm<S extends z.ZodTypeAny>(id: string, intents: string[], schema: S, last: ActionResult | undefined, defaultValue?: Record<string, string>) {
  return useForm({
    id,
    lastResult: last && intents.includes(last.intent) ? last.result : undefined,
    constraint: getZodConstraint(schema),
    defaultValue,
    shouldValidate: 'onBlur',
    // Once shown, an error goes as soon as the value is fixed, not on the blur of the click on submit
    // (that blur moved the button away from under the pointer and the click was lost).
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaFor(formData.get('intent')) }),
  })
}

function ProfileForm({ user, last }: { user: User; last?: ActionResult }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'profile' })
  const [form, fields] = useSectionForm('profile-form', ['profile'], updateProfileSchema, last, { user_name: user.user_name, profile: user.profile })
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack>
        <TextField meta={fields.user_name} label={t('settings.userName')} />
        <TextareaField meta={fields.profile} label={t('settings.profile')} description={t('settings.profileHint')} autosize minRows={3} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" name="intent" value="profile" loading={pending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}

function PasswordForm({ last }: { last?: ActionResult }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'password' })
  const [form, fields] = useSectionForm('password-form', ['password'], passwordFormSchema, last)
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack>
        <PasswordField meta={fields.oldPassword} label={t('settings.oldPassword')} autoComplete="current-password" />
        <PasswordField meta={fields.newPassword} label={t('auth.newPassword')} description={t('validation.passwordRule')} autoComplete="new-password" />
        <PasswordField meta={fields.confirmPassword} label={t('auth.confirmPassword')} autoComplete="new-password" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" name="intent" value="password" loading={pending}>
            {t('settings.changePassword')}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}

function BindForm({ kind, current, operator, last }: { kind: 'email' | 'phone'; current: string | null; operator: boolean; last?: ActionResult }) {
  const { t } = useTranslation()
  const intent = kind
  const codeIntent = `${kind}Code`
  const pending = useIsPending({ intent })
  const [form, fields] = useSectionForm(`${kind}-form`, [intent, codeIntent], kind === 'email' ? emailFormSchema : phoneFormSchema, last)
  const sent = last && [intent, codeIntent].includes(last.intent) ? last.codeSent : undefined
  const field = kind === 'email' ? fields.email : fields.phone
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack>
        <Text size="sm">
          {t(`settings.current.${kind}`)}: <b>{current ?? t('settings.notBound')}</b>
        </Text>
        <TextField meta={field as never} type={kind === 'email' ? 'email' : 'tel'} label={t(`settings.new.${kind}`)} />
        <VerificationCodeField meta={fields.verificationCode} intent={codeIntent} sent={sent} operator={operator} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" name="intent" value={intent} loading={pending}>
            {current ? t(`settings.change.${kind}`) : t(`settings.bind.${kind}`)}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}

function AlipayForm({ user, last }: { user: User; last?: ActionResult }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'alipay' })
  const [form, fields] = useSectionForm('alipay-form', ['alipay'], updateAlipaySchema, last, {
    alipayRealName: user.alipayRealName ?? '',
    alipayAccount: user.alipayAccount ?? '',
  })
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack>
        <TextField meta={fields.alipayRealName} label={t('settings.alipayRealName')} />
        <TextField meta={fields.alipayAccount} label={t('settings.alipayAccount')} description={t('settings.alipayAccountHint')} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" name="intent" value="alipay" loading={pending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}

export default function UserSetting() {
  const { t } = useTranslation()
  const { user } = useLoaderData<typeof loader>()
  const last = useActionData<typeof action>() as ActionResult | undefined
  const termsPending = useIsPending({ intent: 'terms' })
  return (
    <Stack maw={960}>
      <Title order={2}>{t('menu.setting')}</Title>
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {/* A div: the Badge is a div, which a <p> cannot hold (the browser splits it and hydration fails). */}
          <Text size="sm" component="div">
            {t('settings.role')}: <Badge variant="light">{t(`users.roles.${user.role}`)}</Badge>
          </Text>
          <Text size="sm">
            {t('settings.createdAt')}: {formatDateTime(user.created_at)}
          </Text>
          <Text size="sm">
            {t('settings.lastLogin')}: {formatDateTime(user.last_login_time)} {user.last_login_iP ? `(${user.last_login_iP})` : ''}
          </Text>
        </SimpleGrid>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section id="profile" title={t('settings.sections.profile')}>
          <ProfileForm user={user} last={last} />
        </Section>
        <Section id="password" title={t('settings.sections.password')}>
          <PasswordForm last={last} />
        </Section>
        <Section
          id="security-phone"
          title={t('settings.sections.phone')}
          extra={<Badge color={user.phone ? 'green' : 'orange'} variant="light">{user.phone ? t('settings.bound') : t('settings.notBound')}</Badge>}
        >
          <Text size="xs" c="dimmed" mb="sm">
            {t('settings.phoneWhy')}
          </Text>
          <BindForm kind="phone" current={user.phone} operator={user.role === 'admin'} last={last} />
        </Section>
        <Section id="email" title={t('settings.sections.email')}>
          <BindForm kind="email" current={user.email} operator={user.role === 'admin'} last={last} />
        </Section>
        <Section id="alipay" title={t('settings.sections.alipay')}>
          <AlipayForm user={user} last={last} />
        </Section>
        <Section
          id="terms"
          title={t('settings.sections.terms')}
          extra={<Badge color={user.terms_agreed_at ? 'green' : 'orange'} variant="light">{user.terms_agreed_at ? t('settings.agreed') : t('settings.notAgreed')}</Badge>}
        >
          <Stack>
            <Text size="sm">
              {t('settings.termsText')}{' '}
              <Anchor component={Link} to="/agreement/exemptionagree">
                {t('pages.agreement.exemption')}
              </Anchor>
            </Text>
            {user.terms_agreed_at ? (
              <Text size="sm" c="green">
                {t('settings.termsAgreedAt', { at: formatDateTime(user.terms_agreed_at) })}
              </Text>
            ) : (
              <Form method="post">
                <Button type="submit" name="intent" value="terms" loading={termsPending}>
                  {t('settings.agreeTerms')}
                </Button>
              </Form>
            )}
          </Stack>
        </Section>
      </SimpleGrid>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
