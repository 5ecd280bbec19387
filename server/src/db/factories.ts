// Data builders shared by the demo seed (./seed.ts), the API tests (server/test/helpers.ts) and the e2e
// suite (tests/e2e/api.ts). They only make values; each caller stores them its own way (the database,
// or the API over HTTP). Nothing here opens a database, so the e2e runner can load this file as is.
import crypto from 'node:crypto'
import { fenToYuan } from '#contract/money.ts'
import type { PaymentStatus } from '#contract/orders.ts'
import type { ShareType } from '#contract/shares.ts'
import { ORDER_TTL_MS, newOrderNo } from '../modules/orders/index.ts'

// ---- unique values ------------------------------------------------------------------------------
// Unique across the processes that share one database (e2e workers, the e2e global setup): a random
// tag per process and a counter within it.
const processTag = crypto.randomBytes(3).toString('hex')
let seq = 0

/**
 * A user name (SPEC §5: 2–32 letters, digits, _ or -, not all digits), also good as a title or a search
 * tag. Lower case, so an email made from it is the address the outbox shows. The counter comes before
 * the process tag, so no name is a substring of another (a search for one finds only its own rows).
 */
export function uniqueName(prefix = 'u'): string {
  seq += 1
  return `${prefix}_${seq.toString(36)}${processTag}`
}

export const uniqueEmail = (name = uniqueName('mail')) => `${name}@payshare.test`

// SPEC §5 phone: ^1[3-9]\d{9}$. 15–19 with five random digits per process, then a counter: the fixed
// numbers of the seed and the tests (13x) are never drawn.
const phoneBase = `1${crypto.randomInt(5, 10)}${String(crypto.randomInt(0, 100_000)).padStart(5, '0')}`
let phoneSeq = 0
export function uniquePhone(): string {
  phoneSeq = (phoneSeq + 1) % 10_000
  return `${phoneBase}${String(phoneSeq).padStart(4, '0')}`
}

/** Meets SPEC §5: upper and lower case, a digit, a special character, no space. */
export const strongPassword = () => `Pw-${crypto.randomBytes(6).toString('base64url').replace(/[-_]/g, 'x')}#A9`

// ---- shares -------------------------------------------------------------------------------------
export type ShareAttrs = {
  title: string
  type: ShareType
  content: string
  extractionCode: string | null
  priceFen: number
  subscription: 'open' | 'close'
}

const SAMPLE_CONTENT: Record<ShareType, string> = {
  text: 'secret text',
  url: 'https://example.com/paid/content',
  netdisk: 'https://pan.baidu.com/s/1payshareSample',
}

/** A share as its seller would write it; every field can be given. */
export function buildShare(over: Partial<ShareAttrs> = {}): ShareAttrs {
  const type = over.type ?? 'text'
  return {
    title: uniqueName('share'),
    type,
    content: SAMPLE_CONTENT[type],
    extractionCode: type === 'netdisk' ? 'x7k2' : null,
    priceFen: 350,
    subscription: 'close',
    ...over,
  }
}

/** The same share as the body of `POST /api/shares/new` (yuan on the wire, DESIGN §2). */
export function newShareBody(share: ShareAttrs) {
  return {
    title: share.title,
    type: share.type,
    content: share.content,
    ...(share.extractionCode ? { extraction_code: share.extractionCode } : {}),
    price: fenToYuan(share.priceFen),
    subscription_status: share.subscription,
  }
}

// ---- orders -------------------------------------------------------------------------------------
/**
 * The number and times of an order created at `createdAt` that is now in `status`: the number names
 * the creation time (DESIGN: `PS` + Asia/Shanghai yyyyMMddHHmmss + 12 random digits), it expires after
 * the usual 30 minutes, was paid a minute after creation and refunded an hour after that.
 */
export function orderTimes(createdAt: Date, status: PaymentStatus) {
  const at = (ms: number) => new Date(createdAt.getTime() + ms)
  const paid = status === 'Completed' || status === 'Refund'
  return {
    orderNo: newOrderNo(createdAt),
    createdAt,
    expiresAt: at(ORDER_TTL_MS),
    paidAt: paid ? at(60_000) : null,
    refundedAt: status === 'Refund' ? at(61 * 60_000) : null,
  }
}
