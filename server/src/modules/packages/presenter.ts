import { fenToYuan } from '#contract/money.ts'
import type { AdminPackage, Package } from '#contract/packages.ts'
import type { AdminPackageRow, PackageRow } from './repository.ts'

/** SPEC §3 Package: the price in yuan. */
export function presentPackage(p: PackageRow): Package {
  return {
    id: p.id,
    name: p.name,
    download_limit: p.downloadLimit,
    price: fenToYuan(p.priceFen),
    duration_days: p.durationDays,
    status: p.status,
    created_at: p.createdAt.toISOString(),
  }
}

/** The admin's row: with its subscriber counts (SPEC §3 subscription_count). */
export function presentAdminPackage(r: AdminPackageRow): AdminPackage {
  return { ...presentPackage(r.pkg), subscription_count: r.subscriptionCount, opened_count: r.openedCount, updated_at: r.pkg.updatedAt.toISOString() }
}
