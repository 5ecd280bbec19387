import { Button, Center, Group, Stack, Text, Title } from '@mantine/core'
import { isRouteErrorResponse, Link, useLocation, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmLogout } from './flash.tsx'
import { exceptionText } from '~/utils/api-message.ts'

/** SPEC §8 page messages, shared by the exception routes and every error boundary. */
export function ExceptionPage({ status, msg }: { status: 403 | 404 | 500 | number; msg?: string | null }) {
  const { t } = useTranslation()
  const location = useLocation()
  const { text, detail } = exceptionText(t, status, msg)
  return (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="md">
        <Title order={1} c="dimmed" fz={64}>
          {status}
        </Title>
        <Text size="lg" role="alert">
          {text}
        </Text>
        {detail ? <Text c="dimmed">{detail}</Text> : null}
        <Group>
          {status === 404 ? (
            <Button component="a" href={location.pathname + location.search} variant="default">
              {t('pages.retry')}
            </Button>
          ) : null}
          <Button component={Link} to="/dashboard/workplace">
            {t('pages.back')}
          </Button>
        </Group>
      </Stack>
    </Center>
  )
}

/** Thrown responses carry `{msg, confirmLogout}` from the API (app/.server/forms.ts). */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    const d = error.data as { msg?: string; confirmLogout?: boolean } | null
    return (
      <>
        <ConfirmLogout open={Boolean(d?.confirmLogout)} />
        <ExceptionPage status={error.status} msg={d?.msg} />
      </>
    )
  }
  if (typeof document === 'undefined') console.error(error)
  return <ExceptionPage status={500} />
}
