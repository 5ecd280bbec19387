import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { bpToPercent, type ChannelList, type channelCreateSchema, type channelUpdateSchema, type EarningTerms, percentToBp } from '#contract/channels.ts'
import { fenToYuan, yuanToFen } from '#contract/money.ts'
import type { OrderCreated, PaymentMethod } from '#contract/orders.ts'
import type { Config } from '../../config.ts'
import { conflict, invalid, notFound, tooMany } from '../../errors.ts'
import { spend } from '../../plugins/app/rate-limits.ts'
import { startOrder } from '../orders/index.ts'
import { sellerFeeRateBp } from './effects.ts'
import { presentChannel, presentOffer, presentPeriod } from './presenter.ts'
import * as repo from './repository.ts'
import { lastMonth, openRefusal, sameNameKey } from './rules.ts'

/** What this module's use cases take from the app (decision 120). */
type ChannelsDeps = Pick<FastifyInstance, 'clock' | 'config' | 'db' | 'limits' | 'orderEffects' | 'payments'>

type Page = { pageNum: number; pageSize: number }

/** How earning works here, from the configuration (DESIGN §3 Income, Withdrawal). */
export function earningTerms(config: Pick<Config, 'defaultFeeBp' | 'settlementDelayMs' | 'withdrawal'>): EarningTerms {
  return {
    default_fee_rate: bpToPercent(config.defaultFeeBp),
    settlement_delay_hours: config.settlementDelayMs / 3_600_000,
    withdrawal_minimum: fenToYuan(config.withdrawal.minFen),
    withdrawal_fee_rate: bpToPercent(config.withdrawal.feeBp),
    withdrawal_fee_minimum: fenToYuan(config.withdrawal.feeMinFen),
  }
}

/**
 * The enabled channels for a seller, and where the seller stands: the fee rate a sale paid now gets
 * (the same function settlement uses), the periods not yet over, and last month's income.
 */
export async function channelsForSeller(deps: ChannelsDeps, sellerId: number, q: Page): Promise<ChannelList> {
  const now = deps.clock()
  const month = lastMonth(now)
  const [{ rows, total }, periods, incomeFen, rateBp] = await Promise.all([
    repo.listEnabledChannels(deps.db, q),
    repo.openPeriods(deps.db, sellerId, now),
    repo.incomeBetweenFen(deps.db, sellerId, month.from, month.to),
    sellerFeeRateBp(deps.db, sellerId, now, deps.config.defaultFeeBp),
  ])
  const until = new Map<number, Date>()
  for (const p of periods) if ((until.get(p.channelId) ?? 0) < p.endsAt) until.set(p.channelId, p.endsAt)
  return {
    list: rows.map((c) => presentOffer(c, { eligible: openRefusal(c, incomeFen) === null, openUntil: until.get(c.id) ?? null })),
    total,
    pageNum: q.pageNum,
    pageSize: q.pageSize,
    account: {
      fee_rate: bpToPercent(rateBp),
      default_fee_rate: bpToPercent(deps.config.defaultFeeBp),
      open: periods.map(presentPeriod),
      last_month: month.month,
      last_month_income: fenToYuan(incomeFen),
    },
  }
}

/**
 * A seller opens a channel: an order for its price through the one payment pipeline (startOrder); the
 * payment opens it (settlement → channelOrders.paid). Refused while the channel is disabled or when last
 * month's income is below its minimum — the answer carries both amounts for the message.
 */
export async function openChannelOrder(
  deps: ChannelsDeps,
  input: { id: number; paymentMethod: PaymentMethod; sellerId: number; ip: string; log: FastifyBaseLogger },
): Promise<OrderCreated> {
  const wait = await spend(deps.limits.orderIp, input.ip)
  if (wait) throw tooMany('errors.rateLimited', wait)
  const channel = await repo.findChannel(deps.db, input.id)
  if (!channel) throw notFound('channels.notFound')
  const month = lastMonth(deps.clock())
  const incomeFen = await repo.incomeBetweenFen(deps.db, input.sellerId, month.from, month.to)
  const refusal = openRefusal(channel, incomeFen)
  if (refusal) {
    throw conflict(refusal, { minimum_income: fenToYuan(channel.minimumIncomeFen), last_month_income: fenToYuan(incomeFen), last_month: month.month })
  }
  return startOrder(
    deps,
    { type: 'channel', channelId: channel.id, sellerId: null, name: channel.name, amountFen: channel.priceFen, returnPath: '/dashboard/makemoney' },
    { paymentMethod: input.paymentMethod, buyerId: input.sellerId, ip: input.ip, log: input.log },
  )
}

export async function adminChannels(deps: ChannelsDeps, q: Page & { status?: 'enable' | 'disable'; keyword?: string }) {
  const { rows, total } = await repo.listChannels(deps.db, q, deps.clock())
  return { list: rows.map((r) => presentChannel(r.channel, r.openSellers)), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

type CreateBody = z.output<typeof channelCreateSchema>
type UpdateBody = z.output<typeof channelUpdateSchema>

/** The wire's yuan, percent and days as stored: fen, basis points, days. */
function storedValues(b: Partial<Omit<CreateBody, 'status'>>): Partial<repo.ChannelValues> {
  const v: Partial<repo.ChannelValues> = {}
  if (b.name !== undefined) v.name = b.name.trim().replace(/\s+/g, ' ')
  if (b.price !== undefined) v.priceFen = yuanToFen(b.price)
  if (b.fee_rate !== undefined) v.feeRateBp = percentToBp(b.fee_rate)
  if (b.minimum_income !== undefined) v.minimumIncomeFen = yuanToFen(b.minimum_income)
  if (b.service_duration !== undefined) v.serviceDurationDays = b.service_duration
  return v
}

const nameTakenError = () => invalid({ name: ['channels.validation.nameTaken'] })

export async function createChannel(deps: ChannelsDeps, body: CreateBody) {
  const now = deps.clock()
  const row = await deps.db.transaction(async (tx) => {
    await repo.lockChannelNames(tx)
    if (await repo.nameTaken(tx, sameNameKey(body.name))) throw nameTakenError()
    const v = storedValues(body) as Required<Pick<repo.ChannelValues, 'name' | 'priceFen' | 'feeRateBp' | 'minimumIncomeFen' | 'serviceDurationDays'>>
    return repo.insertChannel(tx, { ...v, status: body.status, createdAt: now, updatedAt: now })
  })
  return presentChannel(row, 0)
}

/**
 * Edits a channel. Periods already paid keep the rate they were opened at; a new rate applies to
 * channels opened from now on. Disabling stops new openings, not the periods running.
 */
export async function updateChannel(deps: ChannelsDeps, body: UpdateBody) {
  const now = deps.clock()
  const { id, status, ...fields } = body
  const row = await deps.db.transaction(async (tx) => {
    const current = await repo.findChannel(tx, id)
    if (!current) throw notFound('channels.notFound')
    const set = storedValues(fields)
    if (status !== undefined) set.status = status
    if (set.name !== undefined && sameNameKey(set.name) !== sameNameKey(current.name)) {
      await repo.lockChannelNames(tx)
      if (await repo.nameTaken(tx, sameNameKey(set.name), id)) throw nameTakenError()
    }
    if (Object.keys(set).length === 0) return current
    const updated = await repo.updateChannel(tx, id, set, now)
    if (!updated) throw conflict('channels.notFound')
    return updated
  })
  return presentChannel(row, await repo.openSellersOf(deps.db, id, now))
}
