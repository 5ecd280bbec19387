import { Anchor, Badge, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { formatYuanAmount } from '#contract/money.ts'
import { PAYMENT_STATUS_VIEW, type PaymentStatus } from '#contract/values/orders.ts'
import type { ShareStatus } from '#contract/values/shares.ts'
import { formatDateTime } from '#app/utils/format.ts'

// The small cells of share and order tables, apart from the share lists' filters and rows so that a
// page showing one badge (the workplace) does not download the filters' inputs (issue 11 JS budget).

/** The API speaks yuan (≤ 2 decimals); shown as `¥12.30`. */
export const yuan = (amount: number | null | undefined) => (amount === null || amount === undefined ? '—' : formatYuanAmount(amount))

const SHARE_STATUS_COLORS: Record<ShareStatus, string> = { under_review: 'orange', approved: 'green', reported_invalid: 'gray', violation: 'red' }

/** A time in a table cell: the date over the time, so wide tables stay narrow. */
export function DateTimeCell({ iso }: { iso: string | null | undefined }) {
  const [date, time] = formatDateTime(iso).split(' ')
  return (
    <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
      {date}
      {time ? (
        <>
          <br />
          {time}
        </>
      ) : null}
    </Text>
  )
}

/** A badge in a table cell keeps its whole label (Mantine's would shrink to an ellipsis). */
const NO_SHRINK = { minWidth: 'max-content' } as const

/** A status as a light badge of its colour, its label (a catalog key) translated. */
export function StatusBadge({ color, label }: { color: string; label: string }) {
  const { t } = useTranslation()
  return (
    <Badge variant="light" color={color} style={NO_SHRINK}>
      {t(label)}
    </Badge>
  )
}

export const ShareStatusBadge = ({ status }: { status: ShareStatus }) => <StatusBadge color={SHARE_STATUS_COLORS[status]} label={`shares.statuses.${status}`} />

export const PaymentStatusBadge = ({ status }: { status: PaymentStatus }) => <StatusBadge {...PAYMENT_STATUS_VIEW[status]} />

/** A share code, linked to its public page (in a new tab with `newTab`). */
export function ShareCodeLink({ unicode, newTab }: { unicode: string; newTab?: boolean }) {
  return (
    <Anchor href={`/share/${unicode}`} target={newTab ? '_blank' : undefined} rel={newTab ? 'noopener' : undefined} ff="monospace" size="sm">
      {unicode}
    </Anchor>
  )
}

