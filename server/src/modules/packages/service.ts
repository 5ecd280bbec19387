import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { yuanToFen } from '#contract/money.ts'
import type { AdminPackage, adminPackageListQuerySchema, Package, packageCreateSchema, packageUpdateSchema } from '#contract/packages.ts'
import type { OrderCreated, PaymentMethod } from '#contract/orders.ts'
import type { pageQuerySchema } from '#contract/users.ts'
import { foreignKeyViolation } from '../../db/errors.ts'
import { conflict, notFound, tooMany } from '../../errors.ts'
import { spend } from '../../plugins/app/rate-limits.ts'
import { startOrder } from '../orders/index.ts'
import { presentAdminPackage, presentPackage } from './presenter.ts'
import * as repo from './repository.ts'

/** What buying a package takes from the app: its own and what startOrder takes (decision 120). */
type PackagesBuyDeps = Pick<FastifyInstance, 'clock' | 'config' | 'db' | 'limits' | 'orderEffects' | 'payments'>

type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number }
type Deps = Pick<FastifyInstance, 'db' | 'clock'>

/** Where the buyer comes back after paying (the package page shows the order's outcome). */
const RETURN_PATH = '/subscription-manage/package-list'

export async function packagesOnSale({ db }: Deps, q: z.output<typeof pageQuerySchema>): Promise<Page<Package>> {
  const { rows, total } = await repo.listOnSale(db, q)
  return { list: rows.map(presentPackage), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

/**
 * A package order through the one payment pipeline (orders/service startOrder): the platform sells it
 * (no seller), and its settlement opens or extends the buyer's subscription (subscriptions/effects).
 */
export async function buyPackage(
  deps: PackagesBuyDeps,
  input: { id: number; paymentMethod: PaymentMethod; buyerId: number; ip: string; log: FastifyBaseLogger },
): Promise<OrderCreated> {
  const wait = await spend(deps.limits.orderIp, input.ip)
  if (wait) throw tooMany('errors.rateLimited', wait)
  const pkg = await repo.findPackage(deps.db, input.id)
  if (!pkg) throw notFound('subscriptions.packageNotFound')
  if (pkg.status !== 'on_sale') throw conflict('subscriptions.packageNotOnSale')
  try {
    return await startOrder(
      deps,
      { type: 'package', packageId: pkg.id, sellerId: null, name: pkg.name, amountFen: pkg.priceFen, returnPath: RETURN_PATH },
      input,
    )
  } catch (e) {
    // Deleted between the look-up and the order (the order's foreign key refused it).
    if (foreignKeyViolation(e)) throw notFound('subscriptions.packageNotFound')
    throw e
  }
}

export async function adminPackages({ db, clock }: Deps, q: z.output<typeof adminPackageListQuerySchema>): Promise<Page<AdminPackage>> {
  const { rows, total } = await repo.listAll(db, q, clock())
  return { list: rows.map(presentAdminPackage), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

async function adminView({ db, clock }: Deps, id: number): Promise<AdminPackage> {
  const row = await repo.withCounts(db, id, clock())
  if (!row) throw notFound('subscriptions.packageNotFound')
  return presentAdminPackage(row)
}

export async function createPackage(deps: Deps, b: z.output<typeof packageCreateSchema>): Promise<AdminPackage> {
  const now = deps.clock()
  const row = await repo.insertPackage(deps.db, {
    name: b.name,
    downloadLimit: b.download_limit,
    priceFen: yuanToFen(b.price),
    durationDays: b.duration_days,
    status: b.status,
    createdAt: now,
    updatedAt: now,
  })
  return adminView(deps, row.id)
}

/**
 * An edit applies from now on: a new price and duration to orders created after it, a new daily
 * limit to the open subscriptions at once (decision 056).
 */
export async function updatePackage(deps: Deps, b: z.output<typeof packageUpdateSchema>): Promise<AdminPackage> {
  const row = await repo.updatePackage(deps.db, b.id, {
    name: b.name,
    downloadLimit: b.download_limit,
    priceFen: b.price !== undefined ? yuanToFen(b.price) : undefined,
    durationDays: b.duration_days,
    status: b.status,
    updatedAt: deps.clock(),
  })
  if (!row) throw notFound('subscriptions.packageNotFound')
  return adminView(deps, row.id)
}

/** SPEC §8: a package with subscribers (or any order, which may still be paid) cannot be deleted — only taken off shelf. */
export async function deletePackage({ db }: Deps, id: number): Promise<void> {
  let outcome: Awaited<ReturnType<typeof repo.deleteUnused>>
  try {
    outcome = await repo.deleteUnused(db, id)
  } catch (e) {
    // An order created meanwhile refers to it.
    if (foreignKeyViolation(e)) throw conflict('subscriptions.packageInUse')
    throw e
  }
  if (outcome === 'gone') throw notFound('subscriptions.packageNotFound')
  if (outcome === 'used') throw conflict('subscriptions.packageInUse')
}
