/**
 * Message text is plain text (issue 10): it is shown as text, and web addresses in it become links.
 * This splits a text into its text runs and its http(s) addresses; nothing in it is ever HTML.
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string }

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/gi
/** Punctuation that ends a sentence rather than the address. */
const TRAILING = /[.,;:!?)\]}。，；：！？）】]+$/

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = []
  let at = 0
  for (const m of text.matchAll(URL_RE)) {
    const href = m[0].replace(TRAILING, '')
    const start = m.index
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) })
    parts.push({ kind: 'link', text: href, href })
    at = start + href.length
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) })
  return parts
}
