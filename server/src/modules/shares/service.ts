import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { yuanToFen } from '#contract/money.ts'
import {
  type adminShareListQuerySchema,
  type adminShareUpdateSchema,
  canAdminMove,
  type OwnShare,
  type PublicShare,
  type ShareCreateInput,
  type ShareStatus,
  type shareUpdateSchema,
} from '#contract/shares.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { conflict, forbidden, notFound } from '../../errors.ts'
import type { AuthUser } from '../../plugins/app/auth.ts'
import { recordAudit } from '../audit/index.ts'
import { presentLinkSummary, presentShare, withContent } from './presenter.ts'
import * as repo from './repository.ts'
import { adminAuditAction, isLink, linkOnlyEdit, newUnicode, statusAfterSellerEdit, touchesReviewedFields, typeChangeNeedsContent } from './rules.ts'

/** What the use cases need of the app: the database, the content cipher, the public lookup's cache and the clock. */
type SharesDeps = Pick<FastifyInstance, 'db' | 'cipher' | 'shareCache' | 'clock' | 'links'>

type Page = { list: PublicShare[]; total: number; pageNum: number; pageSize: number }

/** Needs a bound security phone and the agreed disclaimer (SPEC §1, DESIGN §3); starts under review. */
export async function createShare({ db, cipher, links }: SharesDeps, user: AuthUser, b: ShareCreateInput): Promise<PublicShare> {
  if (!user.phone) throw forbidden('shares.needPhone')
  if (!user.termsAgreedAt) throw forbidden('shares.needTerms')
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await repo.insertShare(db, {
        userId: user.id,
        title: b.title,
        unicode: newUnicode(),
        type: b.type,
        contentEnc: cipher.encrypt(b.content),
        extractionCodeEnc: b.type === 'netdisk' && b.extraction_code ? cipher.encrypt(b.extraction_code) : null,
        priceFen: yuanToFen(b.price),
        subscriptionStatus: b.subscription_status,
      })
      // A link is checked at once, its result shown in share review before approval (issue 25).
      if (isLink(row.type)) links.saved(row.id, 'publish')
      return presentShare(row, user)
    } catch (e) {
      // 57^8 codes: a collision is rare; the unique index catches it and we draw again.
      if (uniqueViolation(e) === 'shares_unicode_key' && attempt < 5) continue
      throw e
    }
  }
}

/** The caller's own, not deleted share, else 404 (never reveal another seller's share). */
async function ownShare(db: SharesDeps['db'], id: number, userId: number) {
  const row = await repo.findLiveShare(db, id, userId)
  if (!row) throw notFound('shares.notFound')
  return row
}

/**
 * An own share; a real change of title, type or content sends it back to review. The row is locked and
 * its status read again inside the transaction, so a moderation step at the same moment is not
 * overwritten; a move back to review is recorded in the share's audit trail.
 */
export async function updateShare({ db, cipher, shareCache, clock, links }: SharesDeps, user: AuthUser, b: z.output<typeof shareUpdateSchema>): Promise<OwnShare> {
  let linkChanged = false
  let fixingStoppedLink = false
  const saved = await db.transaction(async (tx) => {
    const current = await repo.lockLiveShare(tx, b.id, user.id)
    if (!current) throw notFound('shares.notFound')
    if (typeChangeNeedsContent(current.type, b)) throw conflict('shares.contentNeededForType', { fieldErrors: { content: ['validation.contentUrl'] } })
    const touches = touchesReviewedFields(
      {
        title: current.title,
        type: current.type,
        content: cipher.decrypt(current.contentEnc),
        extraction_code: current.extractionCodeEnc ? cipher.decrypt(current.extractionCodeEnc) : '',
      },
      b,
    )
    const type = b.type ?? current.type
    const currentLink = { content: cipher.decrypt(current.contentEnc), extraction_code: current.extractionCodeEnc ? cipher.decrypt(current.extractionCodeEnc) : '' }
    linkChanged = isLink(type) && (type !== current.type || touchesReviewedFields({ title: current.title, type: current.type, ...currentLink }, { content: b.content, extraction_code: b.extraction_code }))
    // A stopped share whose edit changes only its link goes back on sale when the new link passes, without a new review (issue 25).
    fixingStoppedLink = Boolean(current.linkStoppedAt) && linkChanged && linkOnlyEdit(current, b)
    const status = statusAfterSellerEdit(current.status, touches && !fixingStoppedLink)
    if (status === 'locked') throw conflict('shares.locked')
    const updated = await repo.updateShare(tx, current.id, {
      title: b.title,
      type: b.type,
      contentEnc: b.content !== undefined ? cipher.encrypt(b.content) : undefined,
      extractionCodeEnc: type !== 'netdisk' ? null : b.extraction_code !== undefined ? (b.extraction_code ? cipher.encrypt(b.extraction_code) : null) : undefined,
      priceFen: b.price !== undefined ? yuanToFen(b.price) : undefined,
      subscriptionStatus: b.subscription_status,
      status,
      // A share that is no longer a link has no dead link to stop its sales (issue 25).
      linkStoppedAt: !isLink(type) && current.linkStoppedAt ? null : undefined,
    })
    if (status !== current.status) await recordAudit(tx, { subject: 'share', subjectId: current.id, action: 'seller_edit', actorId: user.id, from: current.status, to: status, at: clock() })
    return updated
  })
  let row = saved
  if (fixingStoppedLink) {
    // The seller waits for the check: its answer says whether the share is back on sale.
    await links.now(saved.id, 'edit')
    row = (await repo.findLiveShare(db, saved.id)) ?? saved
  } else if (linkChanged) links.saved(saved.id, 'edit')
  shareCache.invalidate(row.unicode)
  return withContent(presentShare(row, user), row, cipher)
}

/** One seller's shares (`sellerId`) or everyone's (admin). */
export async function listShares({ db }: Pick<SharesDeps, 'db'>, q: z.output<typeof adminShareListQuerySchema>, sellerId?: number): Promise<Page> {
  const { rows, total } = await repo.listShares(db, q, sellerId)
  // Each link's state and last check (issue 25): the seller's list and the admin's review.
  return { list: rows.map((r) => ({ ...presentShare(r.share, r.seller), ...(isLink(r.share.type) ? { link: r.link ? presentLinkSummary(r.link) : null } : {}) })), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

/** The owner's edit view, with the content. */
export async function shareDetail({ db, cipher }: SharesDeps, user: AuthUser, id: number): Promise<OwnShare> {
  const row = await ownShare(db, id, user.id)
  return withContent(presentShare(row, user), row, cipher)
}

/** A soft delete: no new sales, while buyers keep access to what they paid for (see modules/share). */
export async function deleteShare({ db, shareCache }: SharesDeps, user: AuthUser, id: number) {
  const row = await ownShare(db, id, user.id)
  await repo.markDeleted(db, row.id)
  shareCache.invalidate(row.unicode)
}

/**
 * Review and moderation: status moves along the DESIGN §3 machine (409 otherwise), title, price,
 * subscription. One transaction on the locked row: a status change is recorded in the audit trail, and
 * a take-down counts (an appeal is allowed once per take-down).
 */
export async function adminUpdateShare(deps: SharesDeps, adminId: number, b: z.output<typeof adminShareUpdateSchema>): Promise<PublicShare> {
  return (await adminChangeShare(deps, adminId, b)).share
}

/** The content of shares an admin reviews in a queue (decision 125), decrypted; unknown ids are left out. */
export async function adminShareContents({ db, cipher }: SharesDeps, ids: readonly number[]) {
  const rows = await repo.sharesById(db, ids)
  return {
    list: rows.map(({ share: s, userName }) => ({
      id: s.id,
      user_name: userName,
      type: s.type,
      content: cipher.decrypt(s.contentEnc),
      extraction_code: s.extractionCodeEnc ? cipher.decrypt(s.extractionCodeEnc) : null,
    })),
  }
}

/** One share of a batch move (decision 125): the same rules and audit as adminUpdateShare, and whether its status moved. */
export async function adminMoveShare(deps: SharesDeps, adminId: number, id: number, status: ShareStatus): Promise<{ changed: boolean }> {
  return { changed: (await adminChangeShare(deps, adminId, { id, status })).moved }
}

async function adminChangeShare({ db, shareCache, clock }: SharesDeps, adminId: number, b: z.output<typeof adminShareUpdateSchema>) {
  let moved = false
  const row = await db.transaction(async (tx) => {
    const current = await repo.lockLiveShare(tx, b.id)
    if (!current) throw notFound('shares.notFound')
    if (b.status && !canAdminMove(current.status, b.status)) throw conflict('shares.badTransition', { from: current.status, to: b.status })
    moved = b.status !== undefined && b.status !== current.status
    // A replayed move with nothing else to change (a batch sent twice) writes nothing.
    if (!moved && b.title === undefined && b.price === undefined && b.subscription_status === undefined) return current
    const updated = await repo.updateShare(tx, current.id, {
      status: b.status,
      takedowns: moved && b.status === 'reported_invalid' ? current.takedowns + 1 : undefined,
      title: b.title,
      priceFen: b.price !== undefined ? yuanToFen(b.price) : undefined,
      subscriptionStatus: b.subscription_status,
    })
    if (moved) await recordAudit(tx, { subject: 'share', subjectId: current.id, action: adminAuditAction(b.status!), actorId: adminId, from: current.status, to: b.status, at: clock() })
    return updated
  })
  shareCache.invalidate(row.unicode)
  return { share: presentShare(row, await repo.sellerOf(db, row.userId)), moved }
}
