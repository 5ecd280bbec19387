import type { Database } from './client.ts'
import { channels } from './schema/index.ts'

/**
 * The demo's two fee channels (issue 7): one any seller can open, one for sellers with some income
 * last month. Run once (seed.ts remembers the step), so an admin's edits and deletions stay.
 */
export async function seedDemoChannels(db: Database): Promise<void> {
  await db.insert(channels).values([
    { name: '标准渠道 / Standard', priceFen: 990, feeRateBp: 400, minimumIncomeFen: 0, serviceDurationDays: 30 },
    { name: '专业渠道 / Pro', priceFen: 4990, feeRateBp: 200, minimumIncomeFen: 50000, serviceDurationDays: 30 },
  ])
}
