import { describe, expect, it } from 'vitest'
import type { Database } from '../../db/client.ts'
import type { ShareWithSeller } from '../shares/index.ts'
import { PublicShareCache } from './public-cache.ts'

/** A row as the cache hands it out; only the status matters here. */
const rowWith = (status: string) => ({ share: { id: 7, status }, seller: { userName: 's', isBanned: 0 } }) as unknown as ShareWithSeller

/** A database read the test answers by hand, to put an invalidation between a read's start and its answer. */
function handRead() {
  const pending: ((row: ShareWithSeller) => void)[] = []
  let reads = 0
  const read = (_unicode: string) => {
    reads++
    return new Promise<ShareWithSeller | null>((resolve) => pending.push(resolve))
  }
  return { read, answer: (row: ShareWithSeller) => pending.shift()!(row), reads: () => reads }
}

describe('the public share cache (decision 150)', () => {
  it('serves a row again without reading, until invalidated', async () => {
    const db = handRead()
    const cache = new PublicShareCache({} as Database, { ttlMs: 60_000, max: 10 }, db.read)
    const first = cache.get('AbCd1234')
    db.answer(rowWith('approved'))
    expect((await first)?.share.status).toBe('approved')
    expect((await cache.get('AbCd1234'))?.share.status).toBe('approved')
    expect(db.reads()).toBe(1)
    cache.invalidate('AbCd1234')
    const again = cache.get('AbCd1234')
    db.answer(rowWith('taken_down'))
    expect((await again)?.share.status).toBe('taken_down')
  })

  it('never keeps a row read before a takedown that landed while the read was on its way', async () => {
    const db = handRead()
    const cache = new PublicShareCache({} as Database, { ttlMs: 60_000, max: 10 }, db.read)
    const before = cache.get('AbCd1234')
    // The takedown commits and invalidates; then the read started before it answers with the old row.
    cache.invalidate('AbCd1234')
    const after = cache.get('AbCd1234')
    db.answer(rowWith('approved'))
    db.answer(rowWith('taken_down'))
    expect((await before)?.share.status).toBe('approved')
    // A caller after the takedown does not join the old read, and the old row was not kept.
    expect((await after)?.share.status).toBe('taken_down')
    expect((await cache.get('AbCd1234'))?.share.status).toBe('taken_down')
    expect(db.reads()).toBe(2)
  })

  it('an invalidation of everything (a ban, a takedown of all of a seller) drops reads on their way too', async () => {
    const db = handRead()
    const cache = new PublicShareCache({} as Database, { ttlMs: 60_000, max: 10 }, db.read)
    const before = cache.get('AbCd1234')
    cache.invalidate()
    db.answer(rowWith('approved'))
    await before
    const next = cache.get('AbCd1234')
    db.answer(rowWith('taken_down'))
    expect((await next)?.share.status).toBe('taken_down')
  })
})
