import { and, asc, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { yuanToFen } from '#contract/money.ts'
import { idSchema } from '#contract/users.ts'
import { adminShareListQuerySchema, adminShareUpdateSchema, canAdminMove, shareCreateSchema, shareListQuerySchema, shareUpdateSchema } from '#contract/shares.ts'
import { shares, users } from '../../../db/schema.ts'
import { containing } from '../../../db/search.ts'
import { presentShare, withContent } from '../../../domain/shares/present.ts'
import { newUnicode, statusAfterSellerEdit } from '../../../domain/shares/rules.ts'
import { uniqueViolation } from '../../../domain/users/repository.ts'
import { conflict, forbidden, notFound } from '../../../errors.ts'

const idQuery = z.object({ id: idSchema })

const SORT_COLUMNS = {
  created_at: shares.createdAt,
  price: shares.priceFen,
  visit_count: shares.visitCount,
  purchase_count: shares.purchaseCount,
} as const

/** Seller and admin share management (SPEC §7 /api/shares/*). */
export default async function shareRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const enc = (v: string) => app.cipher.encrypt(v)

  async function listShares(q: z.infer<typeof adminShareListQuerySchema>, sellerId?: number) {
    const where = and(
      isNull(shares.deletedAt),
      sellerId ? eq(shares.userId, sellerId) : undefined,
      q.title ? ilike(shares.title, containing(q.title)) : undefined,
      q.type ? eq(shares.type, q.type) : undefined,
      q.status ? eq(shares.status, q.status) : undefined,
      q.keyword ? or(ilike(shares.title, containing(q.keyword)), eq(shares.unicode, q.keyword), ilike(users.userName, containing(q.keyword))) : undefined,
    )
    const column = SORT_COLUMNS[q.sort]
    const orderBy: SQL[] = [q.order === 'asc' ? asc(column) : desc(column), desc(shares.id)]
    const [rows, [total]] = await Promise.all([
      app.db
        .select({ share: shares, seller: { userName: users.userName, isBanned: users.isBanned } })
        .from(shares)
        .innerJoin(users, eq(users.id, shares.userId))
        .where(where)
        .orderBy(...orderBy)
        .limit(q.pageSize)
        .offset((q.pageNum - 1) * q.pageSize),
      app.db.select({ n: count() }).from(shares).innerJoin(users, eq(users.id, shares.userId)).where(where),
    ])
    return { list: rows.map((r) => presentShare(r.share, r.seller)), total: total?.n ?? 0, pageNum: q.pageNum, pageSize: q.pageSize }
  }

  /** The caller's own, not deleted share, else 404 (never reveal another seller's share). */
  async function ownShare(id: number, userId: number) {
    const [row] = await app.db
      .select()
      .from(shares)
      .where(and(eq(shares.id, id), eq(shares.userId, userId), isNull(shares.deletedAt)))
      .limit(1)
    if (!row) throw notFound('shares.notFound')
    return row
  }

  // POST /api/shares/new — needs a bound security phone and the agreed disclaimer (SPEC §1, DESIGN §3).
  app.post('/new', { preHandler: app.authenticate, schema: { body: shareCreateSchema, tags: ['shares'] } }, async (request, reply) => {
    const user = request.user!
    if (!user.phone) throw forbidden('shares.needPhone')
    if (!user.termsAgreedAt) throw forbidden('shares.needTerms')
    const b = request.body
    for (let attempt = 0; ; attempt++) {
      try {
        const [row] = await app.db
          .insert(shares)
          .values({
            userId: user.id,
            title: b.title,
            unicode: newUnicode(),
            type: b.type,
            contentEnc: enc(b.content),
            extractionCodeEnc: b.type === 'netdisk' && b.extraction_code ? enc(b.extraction_code) : null,
            priceFen: yuanToFen(b.price),
            subscriptionStatus: b.subscription_status,
          })
          .returning()
        return reply.ok(presentShare(row!, { userName: user.userName, isBanned: user.isBanned }), 'shares.created', 201)
      } catch (e) {
        // 57^8 codes: a collision is rare; the unique index catches it and we draw again.
        if (uniqueViolation(e) === 'shares_unicode_key' && attempt < 5) continue
        throw e
      }
    }
  })

  // POST /api/shares/update — own share; title/content/type edits go back to review.
  app.post('/update', { preHandler: app.authenticate, schema: { body: shareUpdateSchema, tags: ['shares'] } }, async (request, reply) => {
    const b = request.body
    const current = await ownShare(b.id, request.user!.id)
    const type = b.type ?? current.type
    if ((type === 'url' || type === 'netdisk') && b.type && b.type !== current.type && b.content === undefined) {
      throw conflict('shares.contentNeededForType', { fieldErrors: { content: ['validation.contentUrl'] } })
    }
    // Only a real change of what buyers get sends the share back to review (a form may resend everything).
    const currentCode = current.extractionCodeEnc ? app.cipher.decrypt(current.extractionCodeEnc) : ''
    const touches =
      (b.title !== undefined && b.title !== current.title) ||
      (b.type !== undefined && b.type !== current.type) ||
      (b.content !== undefined && b.content !== app.cipher.decrypt(current.contentEnc)) ||
      (b.extraction_code !== undefined && (b.extraction_code || '') !== currentCode)
    const status = statusAfterSellerEdit(current.status, touches)
    if (status === 'locked') throw conflict('shares.locked')
    const [row] = await app.db
      .update(shares)
      .set({
        title: b.title,
        type: b.type,
        contentEnc: b.content !== undefined ? enc(b.content) : undefined,
        extractionCodeEnc: type !== 'netdisk' ? null : b.extraction_code !== undefined ? (b.extraction_code ? enc(b.extraction_code) : null) : undefined,
        priceFen: b.price !== undefined ? yuanToFen(b.price) : undefined,
        subscriptionStatus: b.subscription_status,
        status,
        updatedAt: new Date(),
      })
      .where(eq(shares.id, current.id))
      .returning()
    app.shareCache.invalidate(row!.unicode)
    return reply.ok(withContent(presentShare(row!, request.user!), row!, app.cipher), 'shares.updated')
  })

  app.get('/list', { preHandler: app.authenticate, schema: { querystring: shareListQuerySchema, tags: ['shares'] } }, async (request, reply) =>
    reply.ok(await listShares(request.query, request.user!.id)),
  )

  // GET /api/shares/detail?id= — the owner's edit view, with content.
  app.get('/detail', { preHandler: app.authenticate, schema: { querystring: idQuery, tags: ['shares'] } }, async (request, reply) => {
    const row = await ownShare(request.query.id, request.user!.id)
    return reply.ok(withContent(presentShare(row, request.user!), row, app.cipher))
  })

  // GET /api/shares/delete?id= (SPEC §7 keeps GET) — soft delete; buyers keep access to what they paid for.
  app.get('/delete', { preHandler: app.authenticate, schema: { querystring: idQuery, tags: ['shares'] } }, async (request, reply) => {
    const row = await ownShare(request.query.id, request.user!.id)
    await app.db.update(shares).set({ deletedAt: new Date() }).where(eq(shares.id, row.id))
    app.shareCache.invalidate(row.unicode)
    return reply.ok(null, 'shares.deleted')
  })

  // ---- admin ----
  app.get('/admin/list', { preHandler: app.requireAdmin, schema: { querystring: adminShareListQuerySchema, tags: ['shares', 'admin'] } }, async (request, reply) =>
    reply.ok(await listShares(request.query)),
  )

  // POST /api/shares/admin/update {id, status?, title?, price?, subscription_status?} — review and moderation.
  app.post('/admin/update', { preHandler: app.requireAdmin, schema: { body: adminShareUpdateSchema, tags: ['shares', 'admin'] } }, async (request, reply) => {
    const b = request.body
    const [current] = await app.db.select().from(shares).where(and(eq(shares.id, b.id), isNull(shares.deletedAt))).limit(1)
    if (!current) throw notFound('shares.notFound')
    if (b.status && !canAdminMove(current.status, b.status)) throw conflict('shares.badTransition', { from: current.status, to: b.status })
    const [row] = await app.db
      .update(shares)
      .set({
        status: b.status,
        title: b.title,
        priceFen: b.price !== undefined ? yuanToFen(b.price) : undefined,
        subscriptionStatus: b.subscription_status,
        updatedAt: new Date(),
      })
      .where(eq(shares.id, current.id))
      .returning()
    app.shareCache.invalidate(row!.unicode)
    const [seller] = await app.db.select({ userName: users.userName, isBanned: users.isBanned }).from(users).where(eq(users.id, row!.userId))
    return reply.ok(presentShare(row!, seller!), 'common.editSuccess')
  })
}
