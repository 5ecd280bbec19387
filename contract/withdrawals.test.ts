import { describe, expect, it } from 'vitest'
import { WITHDRAWAL_STATUS_VIEW, WITHDRAWAL_STATUSES, withdrawalProcessSchema, withdrawalsApi } from './withdrawals.ts'

describe('contract/withdrawals', () => {
  it('shows every SPEC §4 withdrawal status with a colour and its catalog key', () => {
    expect(WITHDRAWAL_STATUSES).toEqual(['Pending', 'Completed', 'Failed'])
    for (const s of WITHDRAWAL_STATUSES) expect(WITHDRAWAL_STATUS_VIEW[s].label).toBe(`withdrawals.statuses.${s}`)
  })

  it('describes every withdrawal endpoint with its path and who may call it (admin ones under /admin)', () => {
    expect(Object.values(withdrawalsApi).map((e) => `${e.method} ${e.path} ${e.access}`)).toEqual([
      'POST /api/withdrawals/create user',
      'GET /api/withdrawals/preview user',
      'GET /api/withdrawals/list user',
      'GET /api/withdrawals/admin/list admin',
      'POST /api/withdrawals/admin/process admin',
      'POST /api/withdrawals/admin/reject admin',
      'POST /api/withdrawals/admin/payout admin',
      'POST /api/withdrawals/admin/batch-process admin',
      'POST /api/withdrawals/admin/batch-reject admin',
    ])
  })

  it('takes the transfer order number trimmed, one message per mistake', () => {
    expect(withdrawalProcessSchema.parse({ id: '3', transaction_order: ' 2026112110 ' })).toEqual({ id: 3, transaction_order: '2026112110' })
    const messages = (v: string) => withdrawalProcessSchema.safeParse({ id: 3, transaction_order: v }).error?.issues.map((i) => i.message)
    expect(messages('')).toEqual(['withdrawals.transactionOrderRequired'])
    expect(messages('a b')).toEqual(['withdrawals.transactionOrderFormat'])
    expect(messages('9'.repeat(65))).toEqual(['withdrawals.transactionOrderFormat'])
  })
})
