import { Alert, Badge, Code, Stack, Table, Text, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PlainTable } from '#app/components/lists/plain-table.tsx'
import { type OutboxMessage, outboxApi } from '#contract/outbox.ts'
import { ApiError, api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { formatDateTime } from '#app/utils/format.ts'

/** Verification codes held back while no mail or SMS provider is configured (GET /api/dev/outbox). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const title = await pageTitle(request, 'menu.outbox')
  try {
    const r = await api(request, outboxApi.list, { token, query: { pageSize: 100 } })
    return { title, list: r.list, enabled: true }
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { title, list: [] as OutboxMessage[], enabled: false }
    return pageError(request, e)
  }
}

export default function Outbox() {
  const { t } = useTranslation()
  const { list, enabled } = useLoaderData<typeof loader>()
  return (
    <Stack>
      <Title order={2}>{t('menu.outbox')}</Title>
      <Alert variant="light" color={enabled ? 'arcoblue' : 'gray'}>
        {enabled ? t('system.outbox.intro') : t('system.outbox.disabled')}
      </Alert>
      {/* What the admin came for, the code, first; on a phone the rest scrolls inside the table, not the page. */}
      <PlainTable minWidth={560} head={['code', 'to', 'purpose', 'channel', 'time'].map((c) => t(`system.outbox.${c}`))}>
        {list.map((m) => (
          <Table.Tr key={m.id}>
            <Table.Td>
              <Code data-testid="outbox-code">{m.code}</Code>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.to}</Table.Td>
            <Table.Td>{t(`system.outbox.purposes.${m.purpose}`, { defaultValue: m.purpose })}</Table.Td>
            <Table.Td>
              <Badge variant="light">{m.channel === 'sms' ? t('system.outbox.sms') : t('system.outbox.email')}</Badge>
            </Table.Td>
            <Table.Td>{formatDateTime(m.created_at)}</Table.Td>
          </Table.Tr>
        ))}
      </PlainTable>
      {list.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
