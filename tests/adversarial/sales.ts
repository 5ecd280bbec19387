// The two parties of a sale for the cross-party tests: a seller with an approved share, and its buyers
// — visitors without an account, or signed-in users — who buy through the sandbox gateway. A buyer
// keeps only what the API gave it: the order number and the buyer key of `POST /api/orders/create`.
import { expect } from 'vitest'
import { shares } from '../../server/src/db/schema/index.ts'
import { newUnicode } from '../../server/src/modules/shares/rules.ts'
import { bearer, createUser, freshIp, type TestApp } from '../../server/test/helpers.ts'

export type Party = { id: number; userName: string; token: string }

/** A buyer's proof as the API issued it: the order number, and the key only its browser received. */
export type Purchase = { orderNo: string; buyerKey: string | undefined; buyer: Party | null }

/** The header a buyer's browser (through the console) proves itself with; nothing when there is no key. */
export const keyHeader = (key: string | undefined): Record<string, string> => (key ? { 'x-buyer-key': key } : {})

export async function signedUp(t: TestApp): Promise<Party> {
  const u = await createUser(t.db)
  return { id: u.id, userName: u.userName, token: await t.login(u.userName, u.password) }
}

export async function approvedShare(t: TestApp, sellerId: number, priceFen = 500) {
  const [share] = await t.db
    .insert(shares)
    .values({ userId: sellerId, title: `Adversarial ${newUnicode()}`, unicode: newUnicode(), type: 'text', contentEnc: t.app.cipher.encrypt('the secret'), priceFen, status: 'approved' })
    .returning()
  return share!
}

/** Buys `unicode` as `buyer` (null: a visitor) and pays it in the sandbox. */
export async function buy(t: TestApp, unicode: string, buyer: Party | null, priceFen = 500): Promise<Purchase> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/orders/create',
    remoteAddress: freshIp(),
    headers: buyer ? bearer(buyer.token) : {},
    payload: { unicode, paymentMethod: 'Alipay' },
  })
  expect(created.statusCode, created.body).toBe(201)
  const data = created.json().data as { orderNo: string; buyerKey?: string }
  const n = t.app.payments.sandbox!.settle(data.orderNo, priceFen, true)
  const paid = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
  expect(paid.body).toBe('success')
  return { orderNo: data.orderNo, buyerKey: data.buyerKey, buyer }
}
