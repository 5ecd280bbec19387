import type { AlipayInfo, LoginRecord, User } from '#contract/users.ts'
import type { loginRecords, users } from '../../db/schema/index.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** SPEC §3 User as the API shows it: never the password hash. */
export function presentUser(u: typeof users.$inferSelect): User {
  return {
    id: u.id,
    uid: u.id,
    user_name: u.userName,
    email: u.email,
    phone: u.phone,
    role: u.role,
    status: u.status,
    profile: u.profile,
    is_banned: u.isBanned === 1 ? 1 : 0,
    last_login_iP: u.lastLoginIp,
    last_login_time: iso(u.lastLoginTime),
    terms_agreed_at: iso(u.termsAgreedAt),
    alipayRealName: u.alipayRealName,
    alipayAccount: u.alipayAccount,
    created_at: u.createdAt.toISOString(),
  }
}

export function presentLoginRecord(r: typeof loginRecords.$inferSelect): LoginRecord {
  return {
    id: r.id,
    uid: r.userId,
    email: r.email,
    username: r.userName,
    loginBrowser: r.browser,
    loginDevice: r.device,
    loginIp: r.ip,
    method: r.method,
    created_at: r.createdAt.toISOString(),
  }
}

export const presentAlipay = (u: Pick<typeof users.$inferSelect, 'alipayRealName' | 'alipayAccount'>): AlipayInfo => ({
  alipayRealName: u.alipayRealName,
  alipayAccount: u.alipayAccount,
})

/** DESIGN §4 list answer. */
export const pageOf = <R, T>(rows: R[], present: (r: R) => T, total: number, q: { pageNum: number; pageSize: number }) => ({
  list: rows.map(present),
  total,
  pageNum: q.pageNum,
  pageSize: q.pageSize,
})
