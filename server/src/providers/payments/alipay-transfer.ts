import type { AlipaySdkCommonResult } from 'alipay-sdk'
import type { Fen } from '#contract/money.ts'
import { ProviderError, type PayoutProvider, type TransferInput, type TransferOutcome } from './types.ts'

/** Exact yuan text with two decimals ("12.30"), the only money format the gateway accepts. */
export function fenToYuanText(fen: Fen): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`not an amount in fen: ${fen}`)
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`
}

/** Answers that say nothing about whether money moved (INTEGRATIONS §1.3, §5.3): ask again, same out_biz_no. */
const UNKNOWN_SUB_CODES = new Set(['SYSTEM_ERROR', 'aop.unknow-error', 'isp.unknow-error', 'isp.unknown-error', 'ACQ.SYSTEM_ERROR'])
/** Transfer states that are not final yet (fund.trans.common.query). */
const OPEN_STATES = new Set(['DEALING', 'WAIT_PAY', 'INIT', 'PROCESSING'])
/** Final states in which nothing reached the payee. */
const FAILED_STATES = new Set(['FAIL', 'CLOSED', 'REFUND'])

/** A 2088… Alipay user id; anything else is a login (email or phone), which needs the real name. */
const ALIPAY_USER_ID = /^2088\d{12}$/

type Execute = (method: string, bizContent: Record<string, unknown>) => Promise<AlipaySdkCommonResult>

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v))

/**
 * Payouts through `alipay.fund.trans.uni.transfer` (TRANS_ACCOUNT_NO_PWD, DIRECT_TRANSFER) and their
 * follow-up through `alipay.fund.trans.common.query` (research/INTEGRATIONS.md §1.3, decision 050).
 * `out_biz_no` is the idempotency key: Alipay answers a repeated one with the first transfer.
 */
export class AlipayTransfers implements PayoutProvider {
  readonly name = 'alipay' as const

  constructor(private readonly execute: Execute) {}

  async transfer(input: TransferInput): Promise<TransferOutcome> {
    const account = input.payee.account.trim()
    const byUserId = ALIPAY_USER_ID.test(account)
    let r: AlipaySdkCommonResult
    try {
      r = await this.execute('alipay.fund.trans.uni.transfer', {
        out_biz_no: input.outBizNo,
        trans_amount: fenToYuanText(input.amount),
        product_code: 'TRANS_ACCOUNT_NO_PWD',
        biz_scene: 'DIRECT_TRANSFER',
        order_title: input.title.slice(0, 128),
        payee_info: { identity: account, identity_type: byUserId ? 'ALIPAY_USER_ID' : 'ALIPAY_LOGON_ID', name: input.payee.realName.trim() },
        ...(input.remark ? { remark: input.remark.slice(0, 200) } : {}),
      })
    } catch (err) {
      return unknown(err)
    }
    if (r.code === '10000') return outcomeOf(r)
    return refusal(r)
  }

  async queryTransfer(outBizNo: string): Promise<TransferOutcome | { state: 'NOT_FOUND' }> {
    let r: AlipaySdkCommonResult
    try {
      r = await this.execute('alipay.fund.trans.common.query', { out_biz_no: outBizNo, product_code: 'TRANS_ACCOUNT_NO_PWD', biz_scene: 'DIRECT_TRANSFER' })
    } catch (err) {
      return unknown(err)
    }
    if (r.code === '10000') return outcomeOf(r)
    if (r.sub_code === 'ORDER_NOT_EXIST') return { state: 'NOT_FOUND' }
    // A query that fails tells nothing about the transfer itself.
    return { state: 'UNKNOWN', code: text(r.sub_code || r.code), message: text(r.sub_msg || r.msg) }
  }
}

/** A successful call: the transfer's own status decides. */
function outcomeOf(r: AlipaySdkCommonResult): TransferOutcome {
  const status = text(r.status)
  if (status === 'SUCCESS') {
    const orderId = text(r.order_id || r.pay_fund_order_id)
    if (orderId) return { state: 'SUCCESS', orderId }
    return { state: 'UNKNOWN', code: 'NO_ORDER_ID', message: 'SUCCESS without an order id' }
  }
  if (FAILED_STATES.has(status)) return { state: 'FAILED', code: text(r.error_code) || status, message: text(r.fail_reason) || status }
  if (OPEN_STATES.has(status)) return { state: 'UNKNOWN', code: status, message: text(r.fail_reason) || status }
  return { state: 'UNKNOWN', code: status || 'NO_STATUS', message: `unexpected transfer status ${status || '(none)'}` }
}

/** A business error answer: final, unless it is one of the "system busy" kind. */
function refusal(r: AlipaySdkCommonResult): TransferOutcome {
  const code = text(r.sub_code || r.code)
  const message = text(r.sub_msg || r.msg)
  if (r.code === '20000' || UNKNOWN_SUB_CODES.has(text(r.sub_code))) return { state: 'UNKNOWN', code, message }
  return { state: 'FAILED', code, message }
}

function unknown(err: unknown): TransferOutcome {
  if (err instanceof ProviderError) return { state: 'UNKNOWN', code: err.code, message: err.message }
  return { state: 'UNKNOWN', code: 'ERROR', message: err instanceof Error ? err.message : String(err) }
}
