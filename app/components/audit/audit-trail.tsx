import { Stack, Table, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { PlainTable } from '../lists/plain-table.tsx'
import type { AuditEvent } from '#contract/audit.ts'
import { formatDateTime } from '#app/utils/format.ts'

/**
 * An item's audit trail (issue 9) on its admin view: when, who, what, from → to, why; oldest first.
 * Actions and states are translated where the catalog knows them (`audit.action.*`, `audit.state.*`),
 * shown as stored otherwise.
 */
export function AuditTrail({ events }: { events: AuditEvent[] }) {
  const { t } = useTranslation()
  const state = (s: string | null) => (s ? t(`audit.state.${s}`, { defaultValue: s }) : '—')
  return (
    <Stack gap="xs">
      <Title order={3}>{t('audit.title')}</Title>
      {events.length === 0 ? (
        <Text c="dimmed">{t('audit.empty')}</Text>
      ) : (
        <PlainTable minWidth={640} head={['time', 'actor', 'action', 'change', 'reason'].map((c) => t(`audit.column.${c}`))}>
          {events.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
              <Table.Td>{e.actor ? e.actor.user_name : t('audit.system')}</Table.Td>
              <Table.Td>{t(`audit.action.${e.action}`, { defaultValue: e.action })}</Table.Td>
              <Table.Td>{e.from || e.to ? `${state(e.from)} → ${state(e.to)}` : '—'}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.reason ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </PlainTable>
      )}
    </Stack>
  )
}
