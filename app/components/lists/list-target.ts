// What the shell needs to know of a list page, apart from ListPage itself: the shell (AppLayout, on every
// console page) imports this, not list-page.tsx, which would bring the list's pager, filters and fields
// (≈ 13 KB gzip) into every page's first load (decision 152).

/** A route whose page is one list says so (`export const handle`): the shell's skip links then lead to it. */
export type ListHandle = { list: true }
/** The id of a page's list (its rows, the table's body): the target of the shell's "skip to the list" link. */
export const LIST_ID = 'list'
