import { Anchor, Badge, Card, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { requireUser } from '#app/.server/auth.ts'
import { pageTitle } from '#app/.server/i18n.ts'

/**
 * The landing page after login: a getting-started checklist from the account's real state. Income
 * figures arrive with the money capability, never as made-up numbers.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser({ request, context })
  const steps = [
    { key: 'phone', done: Boolean(user.phone), to: '/user/setting#security-phone' },
    { key: 'terms', done: Boolean(user.terms_agreed_at), to: '/agreement/exemptionagree' },
    { key: 'alipay', done: Boolean(user.alipayAccount && user.alipayRealName), to: '/user/setting#alipay' },
  ]
  return { title: await pageTitle(request, 'menu.workplace'), userName: user.user_name, steps }
}

export default function Workplace() {
  const { t } = useTranslation()
  const { userName, steps } = useLoaderData<typeof loader>()
  const remaining = steps.filter((s) => !s.done).length
  return (
    <Stack maw={760}>
      <Title order={2}>{t('pages.workplace.hello', { name: userName })}</Title>
      <Card withBorder padding="lg">
        <Group justify="space-between" mb="sm">
          <Title order={4}>{t('pages.workplace.checklist')}</Title>
          <Badge color={remaining ? 'orange' : 'green'} variant="light">
            {remaining ? t('pages.workplace.remaining', { count: remaining }) : t('pages.workplace.allDone')}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" mb="md">
          {t('pages.workplace.intro')}
        </Text>
        <List spacing="md" listStyleType="none" p={0}>
          {steps.map((s) => (
            <List.Item
              key={s.key}
              data-testid={`step-${s.key}`}
              data-done={s.done}
              icon={
                <ThemeIcon color={s.done ? 'green' : 'gray'} radius="xl" size={22} aria-hidden>
                  {s.done ? '✓' : '·'}
                </ThemeIcon>
              }
            >
              <Group gap="xs">
                <Text fw={500}>{t(`pages.workplace.steps.${s.key}.title`)}</Text>
                <Text size="sm" c={s.done ? 'green' : 'orange'}>
                  {s.done ? t('pages.workplace.done') : t('pages.workplace.todo')}
                </Text>
              </Group>
              <Text size="sm" c="dimmed">
                {t(`pages.workplace.steps.${s.key}.text`)}{' '}
                {!s.done ? (
                  <Anchor component={Link} to={s.to} size="sm">
                    {t(`pages.workplace.steps.${s.key}.action`)}
                  </Anchor>
                ) : null}
              </Text>
            </List.Item>
          ))}
        </List>
      </Card>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
