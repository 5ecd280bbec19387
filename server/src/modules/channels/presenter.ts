import { bpToPercent, type Channel, type ChannelOffer, type OpenChannel } from '#contract/channels.ts'
import { fenToYuan } from '#contract/money.ts'
import type { ChannelRow } from './repository.ts'

/** SPEC §3 Channel as admins see it: yuan, fee rate in percent, days. */
export function presentChannel(c: ChannelRow, openSellers: number): Channel {
  return {
    id: c.id,
    name: c.name,
    price: fenToYuan(c.priceFen),
    fee_rate: bpToPercent(c.feeRateBp),
    minimum_income: fenToYuan(c.minimumIncomeFen),
    service_duration: c.serviceDurationDays,
    status: c.status,
    open_sellers: openSellers,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  }
}

/** A channel offered to a seller, with whether they may open it and until when theirs runs. */
export function presentOffer(c: ChannelRow, seller: { eligible: boolean; openUntil: Date | null }): ChannelOffer {
  return {
    id: c.id,
    name: c.name,
    price: fenToYuan(c.priceFen),
    fee_rate: bpToPercent(c.feeRateBp),
    minimum_income: fenToYuan(c.minimumIncomeFen),
    service_duration: c.serviceDurationDays,
    eligible: seller.eligible,
    open_until: seller.openUntil?.toISOString() ?? null,
  }
}

export function presentPeriod(p: { channelId: number; name: string; feeRateBp: number; startsAt: Date; endsAt: Date }): OpenChannel {
  return { channel_id: p.channelId, name: p.name, fee_rate: bpToPercent(p.feeRateBp), starts_at: p.startsAt.toISOString(), ends_at: p.endsAt.toISOString() }
}
