/** A page a list endpoint asks for (DESIGN §4): `pageNum` counts from 1. */
export type PageQuery = { pageNum: number; pageSize: number }

/** The rows of a page, in SQL terms. */
export const pageWindow = (q: PageQuery) => ({ limit: q.pageSize, offset: (q.pageNum - 1) * q.pageSize })

/** An ordered select not limited yet (drizzle's builders are), or a query of a given window. */
type Pageable<T> = { limit(n: number): { offset(n: number): PromiseLike<T[]> } } | ((window: ReturnType<typeof pageWindow>) => PromiseLike<T[]>)

/**
 * One page of `rows` and the count of every row `counted` finds, read side by side. `rows` must be
 * ordered down to a unique column (the id breaks ties), or pages repeat and skip rows; `counted` must
 * filter as `rows` does.
 */
export async function readPage<T>(q: PageQuery, rows: Pageable<T>, counted: PromiseLike<{ n: number }[]>): Promise<{ rows: T[]; total: number }> {
  const window = pageWindow(q)
  const page = typeof rows === 'function' ? rows(window) : rows.limit(window.limit).offset(window.offset)
  const [list, [total]] = await Promise.all([page, counted])
  return { rows: list, total: total?.n ?? 0 }
}
