import { Button, Center, Group, Stack, Text, Title } from '@mantine/core'
import { isRouteErrorResponse, Link, useLocation, useRevalidator, useRouteError } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import { ConfirmLogout } from './flash.tsx'
import { useTopHeadingOrder } from '../layout/page-heading.tsx'
import { exceptionText } from '#app/utils/api-message.ts'

/** SPEC §8 page messages, shared by the exception routes and every error boundary. */
export function ExceptionPage({ status, msg }: { status: 403 | 404 | 500 | number; msg?: string | null }) {
  const { t } = useTranslation()
  const location = useLocation()
  const { text, detail } = exceptionText(t, status, msg)
  const order = useTopHeadingOrder()
  return (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="md">
        <Title order={order} c="dimmed" fz={64}>
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

/** Seconds between the tries of the "temporarily unavailable" page. */
export const RETRY_SECONDS = 5

/**
 * 503: the API did not answer (app/.server/request.ts serviceUnavailable). The session is kept; the
 * page tries again by itself — the loaders run again every few seconds with JavaScript, a meta refresh
 * reloads it without — and offers a retry link meanwhile.
 */
function UnavailablePage() {
  const { t } = useTranslation()
  const location = useLocation()
  const hydrated = useHydrated()
  const revalidator = useRevalidator()
  const order = useTopHeadingOrder()
  useEffect(() => {
    const id = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate()
    }, RETRY_SECONDS * 1000)
    return () => clearInterval(id)
  }, [revalidator])
  return (
    <Center mih="60vh" p="xl">
      {hydrated ? null : <meta httpEquiv="refresh" content={String(RETRY_SECONDS)} />}
      <Stack align="center" gap="md">
        <Title order={order} c="dimmed" fz={64}>
          503
        </Title>
        <Title order={(order + 1) as 2 | 3} role="alert">
          {t('errors.serviceUnavailable')}
        </Title>
        <Text>{t('errors.serviceUnavailableText')}</Text>
        <Button component="a" href={location.pathname + location.search} variant="default">
          {t('pages.retry')}
        </Button>
      </Stack>
    </Center>
  )
}

/** Thrown responses carry `{msg, confirmLogout}` from the API (app/.server/failures.ts), or `unavailable`. */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    const d = error.data as { msg?: string; confirmLogout?: boolean; unavailable?: boolean } | null
    if (error.status === 503 && d?.unavailable) return <UnavailablePage />
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
