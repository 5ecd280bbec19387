import { sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { users } from './schema/index.ts'

/** An ILIKE pattern matching `s` anywhere, with `%`, `_` and `\` in it taken literally. */
export const containing = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** A trigram index can narrow a contains-pattern only when the keyword holds a trigram (three characters). */
export const TRIGRAM_KEYWORD_LENGTH = 3

/**
 * `column` (a user id) is an account whose user name contains `keyword` (decision 098). The same filter
 * written over a join to users cannot use an index: every row is joined before the OR with the row's
 * other keyword columns is known. Here the names are matched in `users` alone, and then:
 * - a keyword of three characters or more (a trigram: users' index finds few names) gives its ids as one
 *   array, `= ANY`, which the column's b-tree index serves, inside the OR too;
 * - a shorter one matches names by the thousand, and the table is scanned whatever the form: `IN`,
 *   which PostgreSQL checks against a hash, where `= ANY` of an array would compare each row with
 *   every id (seconds at 3,700 names over 200,000 shares).
 */
export function accountNamed(column: AnyPgColumn, keyword: string): SQL {
  const ids = sql`select ${users.id} from ${users} where ${users.userName} ilike ${containing(keyword)}`
  return keyword.length >= TRIGRAM_KEYWORD_LENGTH ? sql`${column} = any(array(${ids}))` : sql`${column} in (${ids})`
}
