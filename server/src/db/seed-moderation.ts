import { and, asc, eq } from 'drizzle-orm'
import type { Database } from './client.ts'
import { buildShare } from './factories.ts'
import { appMeta, auditEvents, reports, shares, users } from './schema/index.ts'
import { type ContentCipher, newUnicode } from '../modules/shares/index.ts'

const HOUR_MS = 3600 * 1000

/**
 * Demo moderation (issue 9), once (app_meta), after the demo shares: two open reports on approved demo
 * shares (one from a visitor, one from demo_buyer), and a share of demo_seller taken down after a report
 * with nothing appealed yet — so report-manage, appeal flow and My shares are not empty at first start.
 */
export async function seedDemoModeration(db: Database, cipher: ContentCipher): Promise<void> {
  const [seller] = await db.select({ id: users.id }).from(users).where(eq(users.userName, 'demo_seller'))
  const [buyer] = await db.select({ id: users.id }).from(users).where(eq(users.userName, 'demo_buyer'))
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.userName, 'admin'))
  if (!seller || !buyer || !admin) return
  const approved = await db
    .select({ id: shares.id, status: shares.status })
    .from(shares)
    .where(and(eq(shares.userId, seller.id), eq(shares.status, 'approved')))
    .orderBy(asc(shares.id))
    .limit(2)
  if (approved.length < 2) return
  const claimed = await db.insert(appMeta).values({ key: 'seed.demo-moderation', value: new Date().toISOString() }).onConflictDoNothing().returning()
  if (claimed.length === 0) return
  const now = Date.now()
  await db.insert(reports).values([
    { shareId: approved[0]!.id, reason: 'spam', description: '标题与内容不符 / The title does not match the content', reporterIp: '203.0.113.24', shareStatus: 'approved', createdAt: new Date(now - 5 * HOUR_MS) },
    { shareId: approved[1]!.id, reason: 'infringement', description: '疑似盗版素材 / Looks like pirated material', reporterIp: '198.51.100.7', reporterId: buyer.id, shareStatus: 'approved', createdAt: new Date(now - 2 * HOUR_MS) },
  ])
  const demo = buildShare({ title: '已下架示例 / Taken-down example', type: 'url', content: 'https://example.com/taken-down', priceFen: 800 })
  const takenDownAt = new Date(now - 26 * HOUR_MS)
  const [down] = await db
    .insert(shares)
    .values({
      userId: seller.id,
      title: demo.title,
      unicode: newUnicode(),
      type: demo.type,
      contentEnc: cipher.encrypt(demo.content),
      priceFen: demo.priceFen,
      status: 'reported_invalid',
      takedowns: 1,
      createdAt: new Date(now - 3 * 24 * HOUR_MS),
    })
    .returning({ id: shares.id })
  const [report] = await db
    .insert(reports)
    .values({
      shareId: down!.id,
      reason: 'fraud',
      description: '付款后链接无效 / The link did not work after paying',
      reporterIp: '192.0.2.44',
      shareStatus: 'approved',
      status: 'handled',
      action: 'take_down',
      handledBy: admin.id,
      handledAt: takenDownAt,
      createdAt: new Date(now - 30 * HOUR_MS),
    })
    .returning({ id: reports.id })
  await db.insert(auditEvents).values([
    { subjectType: 'share', subjectId: down!.id, action: 'admin_approve', actorId: admin.id, fromState: 'under_review', toState: 'approved', createdAt: new Date(now - 70 * HOUR_MS) },
    {
      subjectType: 'share',
      subjectId: down!.id,
      action: 'report_take_down',
      actorId: admin.id,
      fromState: 'approved',
      toState: 'reported_invalid',
      reason: `#${report!.id} fraud`,
      createdAt: takenDownAt,
    },
  ])
}
