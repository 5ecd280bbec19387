/** SPEC §4 Withdrawal status. */
export const WITHDRAWAL_STATUSES = ['Pending', 'Completed', 'Failed'] as const
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number]
