import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type Bindings, OAUTH_PROVIDERS, type OAuthProvider } from '#contract/oauth.ts'
import { formatDateTime } from '#app/utils/format.ts'

/**
 * The account's QQ / WeChat bindings with bind and unbind (/user/setting and /bind/<provider>). Each
 * button is a form posting to /bind/<provider>, which comes back to `from`.
 */
export function BindingList({ bindings, only, from }: { bindings: Bindings; only?: OAuthProvider; from: string }) {
  const { t } = useTranslation()
  const providers = only ? [only] : OAUTH_PROVIDERS
  // The hint belongs where the one remaining binding is shown.
  const lastWayIn = !bindings.has_password && bindings.list.length === 1 && providers.includes(bindings.list[0]!.provider)
  return (
    <Stack gap="md">
      {providers.map((provider) => {
        const bound = bindings.list.find((b) => b.provider === provider)
        const name = t(`oauth.provider.${provider}`)
        return (
          <Group key={provider} justify="space-between" wrap="nowrap" data-testid={`binding-${provider}`}>
            <Stack gap={2}>
              <Group gap="xs">
                <Text fw={600}>{name}</Text>
                <Badge color={bound ? 'green' : 'gray'} variant="light">
                  {bound ? t('oauth.status.bound') : t('oauth.status.notBound')}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {bound
                  ? bound.nickname
                    ? t('oauth.boundAs', { nickname: bound.nickname, date: formatDateTime(bound.created_at) })
                    : t('oauth.boundSince', { date: formatDateTime(bound.created_at) })
                  : t('oauth.bindIntro', { provider: name })}
              </Text>
            </Stack>
            <Form method="post" action={`/bind/${provider}`}>
              <input type="hidden" name="from" value={from} />
              {bound ? (
                <Button type="submit" name="intent" value="unbind" variant="default" size="xs" aria-label={`${t('oauth.unbind')} ${name}`}>
                  {t('oauth.unbind')}
                </Button>
              ) : bindings.available.includes(provider) ? (
                <Button type="submit" name="intent" value="bind" size="xs">
                  {t('oauth.bind', { provider: name })}
                </Button>
              ) : (
                <Text size="xs" c="dimmed">
                  {t('oauth.notOffered', { provider: name })}
                </Text>
              )}
            </Form>
          </Group>
        )
      })}
      {lastWayIn ? (
        <Alert color="orange" variant="light">
          <Text size="sm">{t('oauth.noPasswordHint')}</Text>
        </Alert>
      ) : null}
    </Stack>
  )
}

/** /bind/qq and /bind/wechat (SPEC §2: hidden from the menu): one provider's binding, bind and unbind. */
export function BindPage({ provider, bindings }: { provider: OAuthProvider; bindings: Bindings }) {
  const { t } = useTranslation()
  return (
    <Stack maw={640}>
      <Title order={2}>{t(provider === 'qq' ? 'menu.bindQQ' : 'menu.bindWeChat')}</Title>
      <Card withBorder padding="lg">
        <BindingList bindings={bindings} only={provider} from={`/bind/${provider}`} />
      </Card>
      <Anchor component={Link} to="/user/setting#bindings" size="sm">
        {t('oauth.toSettings')}
      </Anchor>
    </Stack>
  )
}
