import { chatApi, messageTextSchema, type Unread } from '#contract/messages.ts'
import { ApiError, api } from './api.ts'

/** The navbar's unread counts; a page still renders (without the count) when they cannot be had. */
export async function unreadCounts(request: Request, token: string): Promise<Unread | null> {
  try {
    return await api(request, chatApi.unread, { token, query: {} })
  } catch {
    return null
  }
}

/** Chat pages shown at once: `pages` of this size, newest first, older ones prepended by "load older". */
export const CHAT_PAGE_SIZE = 20
const MAX_PAGES = 25

/** `?pages=n` of a chat view (1 by default), bounded. */
export function chatPages(request: Request): number {
  const n = Number(new URL(request.url).searchParams.get('pages') ?? '1')
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_PAGES) : 1
}

/**
 * Loads pages 1..n of a chat (each newest first) and joins them oldest first for display; `is_end`
 * is the last page's (SPEC §4: no older messages exist).
 */
export async function loadThread<T extends { list: { id: number }[]; is_end: boolean }>(pages: number, load: (pageNum: number) => Promise<T>): Promise<T> {
  let first: T | null = null
  const lines: T['list'] = []
  let isEnd = false
  for (let p = 1; p <= pages; p++) {
    const page = await load(p)
    first ??= page
    lines.push(...page.list)
    isEnd = page.is_end
    if (page.is_end) break
  }
  const seen = new Set<number>()
  const list = lines.filter((m) => !seen.has(m.id) && seen.add(m.id)).reverse()
  return { ...first!, list, is_end: isEnd }
}

/**
 * What a message form answers when refused: the msg key shown at the text field, and the text that was
 * typed — a page without JavaScript renders the form afresh, so it is given back (issue 23: typed input
 * is kept on a refusal and on 500–504, where `confirmLogout` opens SPEC §8's dialog on the page).
 */
export type SendRefusal = { intent: string; error: string; content?: string; confirmLogout?: boolean }

/** The text typed into a message form (`content`), to give back when the message is refused. */
export function typedText(formData: FormData): string | undefined {
  const content = formData.get('content')
  return typeof content === 'string' ? content : undefined
}

/** The text of a message form, or the key of why it is refused (checked again by the API). */
export function messageText(formData: FormData): { ok: true; content: string } | { ok: false; error: string } {
  const parsed = messageTextSchema.safeParse(formData.get('content') ?? '')
  return parsed.success ? { ok: true, content: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? 'messages.contentRequired' }
}

/** An API refusal of a message: the field's message when there is one, else the msg (429, 409 closed…). */
export function refusalOf(e: unknown, field = 'content'): string | null {
  if (!(e instanceof ApiError) || e.status >= 500) return null
  return e.fieldErrors?.[field]?.[0] ?? e.msg
}
