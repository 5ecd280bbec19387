import crypto from 'node:crypto'
import { UNICODE_ALPHABET, UNICODE_LENGTH } from '#contract/codes.ts'
import type { ShareStatus, ShareType } from '#contract/shares.ts'

/** A new share code: 8 characters from the look-alike-free alphabet, uniformly random. */
export function newUnicode(): string {
  let out = ''
  for (let i = 0; i < UNICODE_LENGTH; i++) out += UNICODE_ALPHABET[crypto.randomInt(UNICODE_ALPHABET.length)]
  return out
}

/** Editing title, content or type sends a share back to review; banned shares cannot be edited. */
export function statusAfterSellerEdit(current: ShareStatus, touchesReviewedFields: boolean): ShareStatus | 'locked' {
  if (current === 'violation') return 'locked'
  if (current === 'reported_invalid' && touchesReviewedFields) return 'locked'
  return touchesReviewedFields ? 'under_review' : current
}

type Reviewed = { title: string; type: ShareType; content: string; extraction_code: string }
type ReviewedEdit = { title?: string; type?: ShareType; content?: string; extraction_code?: string }

/**
 * Whether an edit changes what buyers get (and so what was reviewed). Only a real change counts: a
 * form may resend every field unchanged, and an empty extraction code is the same as none.
 */
export function touchesReviewedFields(current: Reviewed, edit: ReviewedEdit): boolean {
  return (
    (edit.title !== undefined && edit.title !== current.title) ||
    (edit.type !== undefined && edit.type !== current.type) ||
    (edit.content !== undefined && edit.content !== current.content) ||
    (edit.extraction_code !== undefined && (edit.extraction_code || '') !== current.extraction_code)
  )
}

/** A url or netdisk share needs a link: switching to one of those types must come with new content. */
export function typeChangeNeedsContent(currentType: ShareType, edit: { type?: ShareType; content?: string }): boolean {
  const type = edit.type ?? currentType
  return (type === 'url' || type === 'netdisk') && edit.type !== undefined && edit.type !== currentType && edit.content === undefined
}

/** The audit action of an admin's status move on share-manage (catalog `audit.action.*`). */
export function adminAuditAction(to: ShareStatus): string {
  return to === 'approved' ? 'admin_approve' : to === 'reported_invalid' ? 'admin_take_down' : to === 'violation' ? 'admin_ban' : 'admin_review'
}

/** A share whose content is a link the checker follows (issue 25). */
export const isLink = (type: ShareType) => type === 'url' || type === 'netdisk'

/** An edit that leaves title and type as they are: only the link (and its code) or the price can have changed. */
export function linkOnlyEdit(current: { title: string; type: ShareType }, edit: { title?: string; type?: ShareType }): boolean {
  return (edit.title === undefined || edit.title === current.title) && (edit.type === undefined || edit.type === current.type)
}
