import crypto from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { appMeta, orders, shares, users } from './schema/index.ts'
import { ContentCipher, newUnicode } from '../modules/shares/index.ts'
import { postRefund, postSale } from '../modules/ledger/index.ts'
import { platformFee } from '../modules/orders/index.ts'
import { hashPassword } from '../modules/credentials/index.ts'
import { buildShare, orderTimes, type ShareAttrs } from './factories.ts'
import { seedDemoIncome } from './seed-income.ts'
import { seedDemoChannels } from './seed-channels.ts'
import { seedDemoPackages } from './seed-packages.ts'
import { seedDemoWithdrawals } from './seed-withdrawals.ts'
import { seedDemoModeration } from './seed-moderation.ts'
import type { WithdrawalSettings } from '../modules/withdrawals/index.ts'

export const DEMO_PASSWORD = 'Demo@2026'
export const DEMO_SELLER = { userName: 'demo_seller', email: 'seller@payshare.local', phone: '13800138000' }
export const DEMO_BUYER = { userName: 'demo_buyer', email: 'buyer@payshare.local' }

export type SeedResult = { adminCreated: boolean; adminPassword?: string; demo: boolean }

/** Seed steps run once each, remembered in app_meta. Later capabilities append their own steps. */
export async function seed(
  db: Database,
  opts: { adminPassword?: string; demo: boolean; contentKey?: string; feeBasisPoints?: number; withdrawal?: WithdrawalSettings },
): Promise<SeedResult> {
  const result: SeedResult = { adminCreated: false, demo: false }
  const [admin] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.userName}) = 'admin'`).limit(1)
  if (!admin) {
    const password = opts.adminPassword ?? generatedPassword()
    await db.insert(users).values({ userName: 'admin', email: 'admin@payshare.local', role: 'admin', passwordHash: await hashPassword(password) })
    result.adminCreated = true
    // Printed once by the caller; never stored in clear.
    if (!opts.adminPassword) result.adminPassword = password
  } else if (opts.adminPassword) {
    // ADMIN_PASSWORD set: it is the admin's password (changeable later through settings when unset).
    await db.update(users).set({ passwordHash: await hashPassword(opts.adminPassword) }).where(eq(users.id, admin.id))
  }
  if (opts.demo && (await once(db, 'seed.demo-users'))) {
    const passwordHash = await hashPassword(DEMO_PASSWORD)
    await db
      .insert(users)
      .values([
        { ...DEMO_SELLER, passwordHash, profile: '演示卖家 / demo seller', termsAgreedAt: new Date(), alipayRealName: '张三', alipayAccount: DEMO_SELLER.phone },
        { ...DEMO_BUYER, passwordHash, profile: '' },
      ])
      .onConflictDoNothing()
    result.demo = true
  }
  if (opts.demo && opts.contentKey && (await once(db, 'seed.demo-shares'))) {
    await seedDemoShares(db, new ContentCipher(opts.contentKey), opts.feeBasisPoints ?? 500)
  }
  if (opts.demo) await seedDemoIncome(db, { seller: DEMO_SELLER.userName, buyer: DEMO_BUYER.userName, feeBp: opts.feeBasisPoints ?? 500 })
  if (opts.demo && (await once(db, 'seed.demo-channels'))) await seedDemoChannels(db)
  if (opts.demo && opts.contentKey) await seedDemoPackages(db)
  if (opts.demo && opts.contentKey) await seedDemoWithdrawals(db, { sellerName: DEMO_SELLER.userName, withdrawal: opts.withdrawal, feeBasisPoints: opts.feeBasisPoints })
  if (opts.demo && opts.contentKey) await seedDemoModeration(db, new ContentCipher(opts.contentKey))
  return result
}

/** Demo marketplace: approved shares of each type, one under review, orders in every payment status. */
async function seedDemoShares(db: Database, cipher: ContentCipher, feeBp: number) {
  const [seller] = await db.select().from(users).where(eq(users.userName, DEMO_SELLER.userName))
  const [buyer] = await db.select().from(users).where(eq(users.userName, DEMO_BUYER.userName))
  if (!seller || !buyer) return
  type Demo = ShareAttrs & { status: 'approved' | 'under_review' }
  const demo: Demo[] = [
    { ...buildShare({ title: 'Vue3 + TypeScript 实战笔记 / Vue 3 notes', type: 'text', content: '课程笔记：https://example.com/notes 访问密码 vue3-2026\nCourse notes password: vue3-2026', priceFen: 990 }), status: 'approved' },
    { ...buildShare({ title: '设计素材合集 / Design asset pack', type: 'url', content: 'https://example.com/assets/design-pack-2026', priceFen: 1990 }), status: 'approved' },
    { ...buildShare({ title: '考研英语真题 PDF / Exam papers', type: 'netdisk', content: 'https://pan.baidu.com/s/1demoPayShare2026', extractionCode: 'x7k2', priceFen: 500, subscription: 'open' }), status: 'approved' },
    { ...buildShare({ title: '摄影调色预设 / Photo presets (in review)', type: 'url', content: 'https://example.com/presets', priceFen: 1200 }), status: 'under_review' },
  ]
  const rows = await db
    .insert(shares)
    .values(
      demo.map((d) => ({
        userId: seller.id,
        title: d.title,
        unicode: newUnicode(),
        type: d.type,
        contentEnc: cipher.encrypt(d.content),
        extractionCodeEnc: d.extractionCode ? cipher.encrypt(d.extractionCode) : null,
        priceFen: d.priceFen,
        status: d.status,
        subscriptionStatus: d.subscription,
        visitCount: d.status === 'approved' ? 12 : 0,
      })),
    )
    .returning()
  const now = Date.now()
  const statuses = ['Completed', 'Completed', 'Pending', 'Failed', 'Refund'] as const
  // About a day apart; the pending one is new, so it stays payable for its 30 minutes. Inserted oldest
  // first, as real orders are, so ids grow with creation time.
  const demoOrders = statuses
    .map((status, i) => ({ i, status, createdAt: new Date(status === 'Pending' ? now : now - (i + 1) * 26 * 3600 * 1000) }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  for (const { i, status, createdAt } of demoOrders) {
    const share = rows[i % 3]!
    const times = orderTimes(createdAt, status)
    const paid = times.paidAt !== null
    const fee = paid ? platformFee(share.priceFen, feeBp) : null
    const [order] = await db
      .insert(orders)
      .values({
        ...times,
        shareId: share.id,
        sellerId: seller.id,
        buyerId: i % 2 === 0 ? buyer.id : null,
        productName: share.title,
        amountFen: share.priceFen,
        paymentMethod: i % 2 === 0 ? 'Alipay' : 'WeChat',
        provider: 'sandbox',
        paymentStatus: status,
        providerTradeNo: paid ? `SBXDEMO${now}${i}` : null,
        feeFen: fee,
        feeRateBp: paid ? feeBp : null,
        // Settled a day after payment (SPEC §5's 24 hours), as settlement fixes it.
        settleAt: paid ? new Date(times.paidAt!.getTime() + 24 * 3600 * 1000) : null,
        sellerIncomeFen: paid ? share.priceFen - fee! : null,
      })
      .returning()
    if (paid) {
      await db.update(shares).set({ purchaseCount: sql`${shares.purchaseCount} + 1` }).where(eq(shares.id, share.id))
      await postSale(db, order!, times.paidAt!)
      if (times.refundedAt) await postRefund(db, order!, times.refundedAt)
    }
  }
}

/** True the first time a step key is seen (and records it). */
export async function once(db: Database, key: string): Promise<boolean> {
  const rows = await db.insert(appMeta).values({ key, value: new Date().toISOString() }).onConflictDoNothing().returning()
  return rows.length > 0
}

/** A password that satisfies SPEC §5 (upper, lower, digit, special). */
function generatedPassword(): string {
  const base = crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')
  return `Ps-${base}9a`
}
