import type { Database } from '../../db/client.ts'
import { shareAndSellerByCode, type ShareWithSeller } from '../shares/index.ts'

type Load = (unicode: string) => Promise<ShareWithSeller | null>

/**
 * The anonymous share lookup is the hottest read (every visitor, every 1-second poll). Rows are kept
 * for a short time per instance; writes on this instance invalidate at once, other instances see a
 * change within `ttlMs`. Orders always read the database, so a stale price is never charged.
 */
export class PublicShareCache {
  private entries = new Map<string, { at: number; value: ShareWithSeller | null }>()
  private inflight = new Map<string, Promise<ShareWithSeller | null>>()
  private unicodeById = new Map<number, string>()
  /** Bumped by every invalidation: a read that started before one is not kept (decision 150). */
  private generation = 0
  private read: Load

  constructor(
    db: Database,
    private opts: { ttlMs: number; max: number } = { ttlMs: 2000, max: 10_000 },
    // The cache serves anonymous lookups only, and those never find a deleted share.
    read?: Load,
  ) {
    this.read = read ?? (async (unicode) => (await shareAndSellerByCode(db, unicode, { withDeleted: false })) ?? null)
  }

  async get(unicode: string): Promise<ShareWithSeller | null> {
    const hit = this.entries.get(unicode)
    if (hit && Date.now() - hit.at < this.opts.ttlMs) return hit.value
    let p = this.inflight.get(unicode)
    if (!p) {
      const mine: Promise<ShareWithSeller | null> = this.load(unicode).finally(() => {
        if (this.inflight.get(unicode) === mine) this.inflight.delete(unicode)
      })
      p = mine
      this.inflight.set(unicode, p)
    }
    return p
  }

  private async load(unicode: string): Promise<ShareWithSeller | null> {
    const generation = this.generation
    const row = await this.read(unicode)
    // A takedown, edit or ban invalidated while this read was on its way: its row may be from before the
    // change. It answers the callers that asked before the change, and is not kept for those after it.
    if (generation !== this.generation) return row
    if (this.entries.size >= this.opts.max) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(unicode, { at: Date.now(), value: row })
    if (row) this.unicodeById.set(row.share.id, unicode)
    return row
  }

  invalidate(unicode?: string) {
    this.generation++
    if (unicode) {
      this.entries.delete(unicode)
      this.inflight.delete(unicode)
    } else {
      this.entries.clear()
      this.inflight.clear()
    }
  }

  /** After visits were written: the cached counts are behind the database. */
  invalidateIds(ids: Iterable<number>) {
    this.generation++
    for (const id of ids) {
      const unicode = this.unicodeById.get(id)
      if (unicode) this.entries.delete(unicode)
      this.unicodeById.delete(id)
    }
  }
}
