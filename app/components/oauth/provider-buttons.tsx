import { Button, Divider } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { OAuthProvider } from '#contract/oauth.ts'
import { useIsPending } from '#app/components/forms/fields.tsx'

const COLORS: Record<OAuthProvider, string> = { qq: 'blue', wechat: 'green' }

/** "Log in with QQ" / "Log in with WeChat" on /login: each a form that starts the round trip at /login/<provider>. */
export function ProviderButtons({ providers }: { providers: { provider: OAuthProvider }[] }) {
  const { t } = useTranslation()
  const qqPending = useIsPending({ formAction: '/login/qq' })
  const wechatPending = useIsPending({ formAction: '/login/wechat' })
  if (!providers.length) return null
  return (
    <>
      <Divider my="lg" label={t('oauth.orLoginWith')} labelPosition="center" />
      {/* Side by side while both labels fit, else one under the other (320 px, issue 23): a wrapping row. */}
      <div className="ps-provider-buttons">
        {providers.map(({ provider }) => (
          <Form key={provider} method="post" action={`/login/${provider}`}>
            <Button type="submit" name="intent" value="start" variant="light" color={COLORS[provider]} fullWidth loading={provider === 'qq' ? qqPending : wechatPending}>
              {t(`oauth.loginWith.${provider}`)}
            </Button>
          </Form>
        ))}
      </div>
    </>
  )
}
