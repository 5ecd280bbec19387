import { Button, Group, Stack, Table, Text } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { OrderReveal } from '#contract/orders.ts'
import { UrlDialog } from '#app/components/dialogs/url-dialog.tsx'
import { formatDateTime } from '#app/utils/format.ts'

/**
 * Who the content of an order was shown to (decision 102), newest first: how (the buyer's account or
 * browser, the order number alone, the owner, an admin) and whether it counts as shown to the buyer,
 * the account, the browser's visitor id, the address, the last time and how many times. `withOrder` adds
 * the order number (a seller's sales together, on the fraud preview).
 */
export function RevealsTable({ reveals, total, withOrder }: { reveals: OrderReveal[]; total: number; withOrder?: boolean }) {
  const { t } = useTranslation()
  if (reveals.length === 0) return <Text c="dimmed">{t('orders.reveals.none')}</Text>
  return (
    <Stack gap={4}>
      <Table.ScrollContainer minWidth={withOrder ? 860 : 640}>
        <Table striped verticalSpacing="xs" data-testid="reveals">
          <Table.Thead>
            <Table.Tr>
              {withOrder ? <Table.Th>{t('orders.field.orderNo')}</Table.Th> : null}
              <Table.Th>{t('orders.reveals.how')}</Table.Th>
              <Table.Th>{t('orders.reveals.account')}</Table.Th>
              <Table.Th>{t('orders.reveals.visitor')}</Table.Th>
              <Table.Th>{t('orders.reveals.ip')}</Table.Th>
              <Table.Th>{t('orders.reveals.last')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {reveals.map((r) => (
              <Table.Tr key={`${r.order_id}-${r.how}-${r.user_id}-${r.visitor_id}-${r.ip}`} data-testid="reveal-row">
                {withOrder ? (
                  <Table.Td ff="monospace" fz="xs" style={{ whiteSpace: 'nowrap' }}>
                    {r.orderNo}
                  </Table.Td>
                ) : null}
                <Table.Td>
                  <Text size="sm">{t(`orders.reveals.kinds.${r.how}`)}</Text>
                  <Text size="xs" fw={600} c={r.counts ? 'green.8' : 'dimmed'}>
                    {r.counts ? t('orders.reveals.counted') : t('orders.reveals.notCounted')}
                  </Text>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.username ?? '—'}</Table.Td>
                <Table.Td ff="monospace" fz="xs" style={{ overflowWrap: 'anywhere' }}>
                  {r.visitor_id ?? '—'}
                </Table.Td>
                <Table.Td ff="monospace" fz="xs">
                  {r.ip}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">{formatDateTime(r.last_at)}</Text>
                  <Text size="xs" c="dimmed">
                    {r.times > 1 ? t('orders.reveals.timesSince', { count: r.times, time: formatDateTime(r.first_at) }) : t('orders.reveals.once')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > reveals.length ? (
        <Text size="sm" c="dimmed">
          {t('orders.reveals.more', { shown: reveals.length, count: total })}
        </Text>
      ) : null}
    </Stack>
  )
}

/** An order's reveals in a URL dialog (`?reveals=<id>`): a modal with JavaScript, a section of the page without. */
export function RevealsDialog({ orderNo, reveals, total, closeTo }: { orderNo: string; reveals: OrderReveal[]; total: number; closeTo: string }) {
  const { t } = useTranslation()
  return (
    <UrlDialog title={t('orders.reveals.title', { orderNo })} closeTo={closeTo} wide>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('orders.reveals.explain')}
        </Text>
        <RevealsTable reveals={reveals} total={total} />
        <Group justify="flex-end">
          <Button component={Link} to={closeTo} variant="default" preventScrollReset replace>
            {t('oversight.history.close')}
          </Button>
        </Group>
      </Stack>
    </UrlDialog>
  )
}
