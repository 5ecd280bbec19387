import type { PackageStatus } from '#contract/packages.ts'
import type { SubscriptionTag } from '#contract/subscriptions.ts'
import { StatusBadge } from '#app/components/shares/cells.tsx'

const PACKAGE_COLORS: Record<PackageStatus, string> = { on_sale: 'green', off_shelf: 'gray' }
const TAG_COLORS: Record<SubscriptionTag, string> = { opened: 'green', expired: 'gray' }

/** SPEC §4 package status: on sale / off shelf. */
export const PackageStatusBadge = ({ status }: { status: PackageStatus }) => <StatusBadge color={PACKAGE_COLORS[status]} label={`subscriptions.statuses.${status}`} />

/** SPEC §4 subscription service tags: opened / expired. */
export const SubscriptionTagBadge = ({ tag }: { tag: SubscriptionTag }) => <StatusBadge color={TAG_COLORS[tag]} label={`subscriptions.tags.${tag}`} />
