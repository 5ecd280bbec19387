import { Badge } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import type { PackageStatus } from '#contract/packages.ts'
import type { SubscriptionTag } from '#contract/subscriptions.ts'

/** A badge in a table cell keeps its whole label (Mantine's would shrink to an ellipsis). */
const NO_SHRINK = { minWidth: 'max-content' } as const

const PACKAGE_COLORS: Record<PackageStatus, string> = { on_sale: 'green', off_shelf: 'gray' }
const TAG_COLORS: Record<SubscriptionTag, string> = { opened: 'green', expired: 'gray' }

/** SPEC §4 package status: on sale / off shelf. */
export function PackageStatusBadge({ status }: { status: PackageStatus }) {
  const { t } = useTranslation()
  return (
    <Badge variant="light" color={PACKAGE_COLORS[status]} style={NO_SHRINK}>
      {t(`subscriptions.statuses.${status}`)}
    </Badge>
  )
}

/** SPEC §4 subscription service tags: opened / expired. */
export function SubscriptionTagBadge({ tag }: { tag: SubscriptionTag }) {
  const { t } = useTranslation()
  return (
    <Badge variant="light" color={TAG_COLORS[tag]} style={NO_SHRINK}>
      {t(`subscriptions.tags.${tag}`)}
    </Badge>
  )
}
