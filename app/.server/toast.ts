import { redirect } from '@remix-run/node'
import { secureFor, toastCookie } from './session.ts'

/** A flash message: `key` is a catalog key (or an API msg), shown for 5 s (SPEC §8). */
export type Toast = { type: 'success' | 'error' | 'info'; key: string; values?: Record<string, string> }
/** The SPEC §8 "Confirm logout" dialog rides the same cookie. */
export type Flash = { toast?: Toast; confirmLogout?: boolean }

export async function setFlash(request: Request, flash: Flash): Promise<string> {
  return toastCookie.serialize(flash, { secure: secureFor(request) })
}

export async function redirectWithToast(request: Request, url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers)
  headers.append('set-cookie', await setFlash(request, { toast }))
  return redirect(url, { ...init, headers })
}

/** Reads and clears the flash (root loader). */
export async function readFlash(request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const flash = ((await toastCookie.parse(request.headers.get('cookie'))) as Flash | null) ?? null
  if (!flash) return { flash: null, clear: null }
  return { flash, clear: await toastCookie.serialize('', { maxAge: 0, secure: secureFor(request) }) }
}
