import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Outlet, useLoaderData, useMatches } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { oauthApi } from '#contract/oauth.ts'
import { BindingList } from '#app/components/oauth/bindings.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { formatDateTime } from '#app/utils/format.ts'
import { AlipayForm } from '../_app.user.setting.alipay/alipay-form.tsx'
import { EmailForm } from '../_app.user.setting.email/email-form.tsx'
import { PasswordForm } from '../_app.user.setting.password/password-form.tsx'
import { PhoneForm } from '../_app.user.setting.phone/phone-form.tsx'
import { ProfileForm } from '../_app.user.setting.profile/profile-form.tsx'
import { TermsForm } from '../_app.user.setting.terms/terms-form.tsx'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, token } = await requireUser({ request, context })
  // QQ / WeChat bindings (issue 12); the rest of the page does not depend on them.
  const bindings = await api(request, oauthApi.bindings, { token }).catch((e: unknown) => {
    if (e instanceof ApiError) return null
    throw e
  })
  return { title: await pageTitle(request, 'menu.setting'), user, bindings }
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

/**
 * The settings page: one section per form, each form posting to its own route
 * (`/user/setting/<form>`, app/routes/_app.user.setting.<form>/) with its own action and schema.
 * A refused post renders this page at that route's URL, and the section of that form shows the route
 * itself (the outlet) — so its errors sit at its fields, with or without JavaScript.
 */
export default function UserSetting() {
  const { t } = useTranslation()
  const { user, bindings } = useLoaderData<typeof loader>()
  const active = useMatches().at(-1)?.id
  const slot = (form: string, idle: ReactNode) => (active === `routes/_app.user.setting.${form}` ? <Outlet context={user} /> : idle)
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
          {slot('profile', <ProfileForm user={user} />)}
        </Section>
        <Section id="password" title={t('settings.sections.password')}>
          {slot('password', <PasswordForm />)}
        </Section>
        <Section
          id="security-phone"
          title={t('settings.sections.phone')}
          extra={<Badge color={user.phone ? 'green' : 'orange'} variant="light">{user.phone ? t('settings.bound') : t('settings.notBound')}</Badge>}
        >
          <Text size="xs" c="dimmed" mb="sm">
            {t('settings.phoneWhy')}
          </Text>
          {slot('phone', <PhoneForm user={user} />)}
        </Section>
        <Section id="email" title={t('settings.sections.email')}>
          {slot('email', <EmailForm user={user} />)}
        </Section>
        <Section id="alipay" title={t('settings.sections.alipay')}>
          {slot('alipay', <AlipayForm user={user} />)}
        </Section>
        <Section
          id="terms"
          title={t('settings.sections.terms')}
          extra={<Badge color={user.terms_agreed_at ? 'green' : 'orange'} variant="light">{user.terms_agreed_at ? t('settings.agreed') : t('settings.notAgreed')}</Badge>}
        >
          {slot('terms', <TermsForm user={user} />)}
        </Section>
        {bindings ? (
          <Section id="bindings" title={t('oauth.bindingsTitle')}>
            <BindingList bindings={bindings} from="/user/setting#bindings" />
          </Section>
        ) : null}
      </SimpleGrid>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
