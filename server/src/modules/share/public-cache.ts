import type { Database } from '../../db/client.ts'
import { shareAndSellerByCode, type ShareWithSeller } from '../shares/index.ts'

/**
 * The anonymous share lookup is the hottest read (every visitor, every 1-second poll). Rows are kept
 * for a short time per instance; writes on this instance invalidate at once, other instances see a
 * change within `ttlMs`. Orders always read the database, so a stale price is never charged.
 */
export class PublicShareCache {
  private entries = new Map<string, { at: number; value: ShareWithSeller | null }>()
  private inflight = new Map<string, Promise<ShareWithSeller | null>>()
  private unicodeById = new Map<number, string>()

  constructor(
    private db: Database,
    private opts: { ttlMs: number; max: number } = { ttlMs: 2000, max: 10_000 },
  ) {}

  async get(unicode: string): Promise<ShareWithSeller | null> {
    const hit = this.entries.get(unicode)
    if (hit && Date.now() - hit.at < this.opts.ttlMs) return hit.value
    let p = this.inflight.get(unicode)
    if (!p) {
      p = this.load(unicode).finally(() => this.inflight.delete(unicode))
      this.inflight.set(unicode, p)
    }
    return p
  }

  private async load(unicode: string): Promise<ShareWithSeller | null> {
    // The cache serves anonymous lookups only, and those never find a deleted share.
    const row = await shareAndSellerByCode(this.db, unicode, { withDeleted: false })
    if (this.entries.size >= this.opts.max) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(unicode, { at: Date.now(), value: row ?? null })
    if (row) this.unicodeById.set(row.share.id, unicode)
    return row ?? null
  }

  invalidate(unicode?: string) {
    if (unicode) this.entries.delete(unicode)
    else this.entries.clear()
  }

  /** After visits were written: the cached counts are behind the database. */
  invalidateIds(ids: Iterable<number>) {
    for (const id of ids) {
      const unicode = this.unicodeById.get(id)
      if (unicode) this.entries.delete(unicode)
      this.unicodeById.delete(id)
    }
  }
}
