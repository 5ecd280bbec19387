import { type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Alert, Anchor, Button, Card, Center, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { Form, Link, useActionData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { loginSchema } from '#contract/auth.ts'
import { type OAuthProvider, createAccountFormSchema } from '#contract/oauth.ts'
import { PasswordField, TextField, useIsPending } from '#app/components/forms/fields.tsx'
import { IntentForm } from '#app/components/forms/intent-form.tsx'
import { AgreeToTermsField } from '#app/components/agreement/agree-field.tsx'
import { LocaleSwitch } from '#app/components/layout/LocaleSwitch.tsx'
import { SkipLink } from '#app/components/layout/text-mode.tsx'

/** What the bind-or-create action answers when a form is refused. */
export type ChoiceResult = { intent: string; result: SubmissionResult<string[]> }

type Props = { provider: OAuthProvider; nickname: string | null; offered: { sandbox: boolean } | null }

/** LoginQQ / LoginWeChat: start the round trip, or — back with an unknown identity — bind it or create an account. */
export function OAuthLoginPage({ provider, nickname, offered }: Props) {
  const { t } = useTranslation()
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      {/* As on /login (issue 23): a skip link first, the page's one <h1>, its body in <main>. */}
      <SkipLink label={t('common.skipToMain')} />
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={nickname === null ? 440 : 820} radius="md">
        <Group justify="space-between" mb="md">
          <Title order={1} size="h2" c="arcoblue">
            {t(provider === 'qq' ? 'menu.bindQQ' : 'menu.bindWeChat')}
          </Title>
          <LocaleSwitch />
        </Group>
        <main id="main" tabIndex={-1}>
          {nickname === null ? <Start provider={provider} offered={offered} /> : <Choose provider={provider} nickname={nickname} />}
        </main>
        <Group justify="center" mt="lg">
          <Anchor component={Link} to="/login" size="sm">
            {t('oauth.backToLogin')}
          </Anchor>
        </Group>
      </Paper>
    </Center>
  )
}

function Start({ provider, offered }: { provider: OAuthProvider; offered: Props['offered'] }) {
  const { t } = useTranslation()
  const name = t(`oauth.provider.${provider}`)
  const pending = useIsPending({ intent: 'start' })
  if (!offered) {
    return (
      <Alert color="orange" variant="light">
        {t('oauth.notOffered', { provider: name })}
      </Alert>
    )
  }
  return (
    <Stack>
      <Text>{t('oauth.startIntro', { provider: name })}</Text>
      {offered.sandbox ? (
        <Text size="sm" c="dimmed">
          {t('oauth.sandboxNote', { provider: name })}
        </Text>
      ) : null}
      <Form method="post">
        <Button type="submit" name="intent" value="start" color={provider === 'qq' ? 'blue' : 'green'} fullWidth loading={pending}>
          {t(`oauth.loginWith.${provider}`)}
        </Button>
      </Form>
    </Stack>
  )
}

function Choose({ provider, nickname }: { provider: OAuthProvider; nickname: string }) {
  const { t } = useTranslation()
  const name = t(`oauth.provider.${provider}`)
  const last = useActionData() as ChoiceResult | undefined
  return (
    <Stack>
      <Alert color="blue" variant="light">
        {nickname ? t('oauth.unknownIdentity', { provider: name, nickname }) : t('oauth.unknownIdentityNoName', { provider: name })}
      </Alert>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <BindExistingForm provider={name} last={last?.intent === 'bindExisting' ? last : undefined} />
        <CreateForm provider={name} last={last?.intent === 'create' ? last : undefined} />
      </SimpleGrid>
      <Form method="post">
        <Button type="submit" name="intent" value="cancel" variant="subtle" color="gray" fullWidth>
          {t('oauth.startOver')}
        </Button>
      </Form>
    </Stack>
  )
}

/** A form of the choice step, checked in the browser by the schema the API checks it with. */
function useChoiceForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(id: string, schema: Schema, last: ChoiceResult | undefined) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    lastResult: last?.result,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
}

/** One of the two ways on: a card with its heading, a hint naming the provider, and its form. */
function ChoiceCard({
  id,
  title,
  hint,
  form,
  intent,
  label,
  children,
}: {
  id: string
  title: string
  hint: string
  form: Parameters<typeof IntentForm>[0]['form']
  intent: string
  label: string
  children: ReactNode
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <IntentForm form={form} intent={intent} label={label}>
        <Title order={4} id={id}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
        {children}
      </IntentForm>
    </Card>
  )
}

function BindExistingForm({ provider, last }: { provider: string; last?: ChoiceResult }) {
  const { t } = useTranslation()
  const [form, fields] = useChoiceForm('oauth-bind-existing', loginSchema, last)
  return (
    <ChoiceCard
      id="oauth-have-account"
      title={t('oauth.haveAccount')}
      hint={t('oauth.haveAccountHint', { provider })}
      form={form}
      intent="bindExisting"
      label={t('oauth.bindAndLogin')}
    >
      <TextField meta={fields.username} label={t('auth.username')} autoComplete="username" />
      <PasswordField meta={fields.password} label={t('auth.password')} autoComplete="current-password" />
    </ChoiceCard>
  )
}

function CreateForm({ provider, last }: { provider: string; last?: ChoiceResult }) {
  const { t } = useTranslation()
  const [form, fields] = useChoiceForm('oauth-create', createAccountFormSchema, last)
  return (
    <ChoiceCard
      id="oauth-new-account"
      title={t('oauth.newAccount')}
      hint={t('oauth.newAccountHint', { provider })}
      form={form}
      intent="create"
      label={t('oauth.createAndLogin')}
    >
      <TextField meta={fields.user_name} label={t('auth.userName')} autoComplete="username" />
      <AgreeToTermsField meta={fields.agree} />
    </ChoiceCard>
  )
}
