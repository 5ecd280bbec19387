import { type Options, stringify } from 'csv-stringify'

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV Injection"): one that begins with `=`, `+`,
 * `-`, `@`, TAB or CR — and their full-width forms, which spreadsheets of a CJK locale may take for the
 * same. `-2-3` as a user name computes in Excel; `=HYPERLINK(…)` leaks.
 */
const FORMULA_START = /^[=+\-@\t\r＝＋－＠]/
/** A plain decimal figure (`-12.50`, `12.5%`): a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?%?$/

/**
 * A text cell as written into every CSV the console exports (decision 107): a cell that would start a
 * formula gets a leading apostrophe, so the spreadsheet shows it as text; a plain decimal figure — our
 * amounts, negative ones included — stays as it is, so it is still a number to sum.
 */
export function spreadsheetCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value
}

/**
 * The CSV writer of the console's exports: `csv-stringify` with a UTF-8 byte-order mark (so spreadsheet
 * programs read Chinese as Chinese, decision 075) and every string cell, headers included, through
 * `spreadsheetCell`. Numbers given as numbers are written as numbers.
 */
export function spreadsheetCsv(options: Omit<Options, 'bom' | 'cast'>) {
  return stringify({ ...options, bom: true, cast: { string: (value) => spreadsheetCell(value) } })
}
